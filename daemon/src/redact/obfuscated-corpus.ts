/**
 * Secrets glued to the words around them or hidden by how they are encoded, and text of the
 * same shapes that holds none. The first seven are the forms a probe stored raw (issue 29);
 * the rest are more of the same families: a secret word glued into a longer key, a vendor
 * prefix glued to a word on either side, an invisible character inside a token or a label,
 * letters drawn alike (fullwidth, mathematical, Cyrillic) and spaces that are not ASCII.
 * All values are invented. Invisible characters are written as escapes so that a reader sees them.
 */
import type { NonSecretSample, SecretSample } from "./secret-corpus.js";

export const OBFUSCATED_SECRET_SAMPLES: readonly SecretSample[] = [
  {
    name: "a password whose key is glued to the word before it",
    text: "Local admin on the staging box: mypassword=hunter2xyz, ask Maya before rotating it.",
    secrets: [{ type: "password-assignment", value: "hunter2xyz" }],
  },
  {
    name: "an AWS key id glued to the word before it",
    text: "The old wiki page lists awsAKIAZXCVBNMASDFGHJK9 for the backup bucket.",
    secrets: [{ type: "aws-access-key", value: "AKIAZXCVBNMASDFGHJK9" }],
  },
  {
    name: "an AWS key id glued to words on both sides",
    text: "copied from the export: keyAKIAQWERTYUIOPASDF12end (the secret was on the next line)",
    secrets: [{ type: "aws-access-key", value: "AKIAQWERTYUIOPASDF12" }],
  },
  {
    name: "a Slack bot token glued to the word before it",
    text: "The release bot still posts with tokenxoxb-584718203945-2291837461029-kQ7vPz2LmN4xR8tY1wB6cJ3d to #deploys.",
    secrets: [{ type: "slack-token", value: "xoxb-584718203945-2291837461029-kQ7vPz2LmN4xR8tY1wB6cJ3d" }],
  },
  {
    name: "a password under pwd, standing alone",
    text: "pwd=Sup3rS3cretQ",
    secrets: [{ type: "password-assignment", value: "Sup3rS3cretQ" }],
  },
  {
    name: "an AWS key id split by a zero-width space",
    text: "The reporting user's key id is AKIABCZK2A\u200BFZ3MUMGQRB (rotated in May).",
    secrets: [{ type: "aws-access-key", value: "AKIABCZK2A\u200BFZ3MUMGQRB" }],
  },
  {
    name: "a fullwidth password assignment typed with a CJK input method",
    text: "本番DBの ｐａｓｓｗｏｒｄ＝ｈｕｎｔｅｒ２ｘｙｚ です",
    secrets: [{ type: "password-assignment", value: "ｈｕｎｔｅｒ２ｘｙｚ" }],
  },
  {
    name: "a password key glued in capitals in a .env file",
    text: "DBHOST=localhost\nDBPASSWORD=Tr0ub4dor%3x\nDBNAME=acme",
    secrets: [{ type: "password-assignment", value: "Tr0ub4dor%3x" }],
  },
  {
    name: "a glued client secret in YAML",
    text: "oauth:\n  clientid: acme-web\n  clientsecret: Qm9vX3R5cGVfc2VjcmV0XzQy\n",
    secrets: [{ type: "password-assignment", value: "Qm9vX3R5cGVfc2VjcmV0XzQy" }],
  },
  {
    name: "a glued API token key after a colon",
    text: "apitoken: 7f3kQ9zLw2Rx8vBn",
    secrets: [{ type: "password-assignment", value: "7f3kQ9zLw2Rx8vBn" }],
  },
  {
    name: "a glued signing key name in JSON",
    text: '{"issuer":"acme","signingkey":"wX9bT4nQ7mZ2kL5v"}',
    secrets: [{ type: "password-assignment", value: "wX9bT4nQ7mZ2kL5v" }],
  },
  {
    name: "a root password under a glued pw key",
    text: "kickstart: rootpw=Lk8#vQ2zXm --iscrypted no",
    secrets: [{ type: "password-assignment", value: "Lk8#vQ2zXm" }],
  },
  {
    name: "a GPG passphrase under a glued key",
    text: "gpgpassphrase=blue7-Ocean-Tr4in",
    secrets: [{ type: "password-assignment", value: "blue7-Ocean-Tr4in" }],
  },
  {
    name: "a password under pass, standing alone in YAML",
    text: "smtp:\n  user: alerts\n  pass: N0tMyD0g7x\n",
    secrets: [{ type: "password-assignment", value: "N0tMyD0g7x" }],
  },
  {
    name: "a GitHub token glued to the word before it",
    text: "CI pushes with tokenghp_JewM2MsfG7wzAbcg2CPoZwfFv6MIA1UmCkoB since Monday.",
    secrets: [{ type: "github-token", value: "ghp_JewM2MsfG7wzAbcg2CPoZwfFv6MIA1UmCkoB" }],
  },
  {
    name: "a GitHub token with a word joiner inside",
    text: "the runner authenticated as ghp_YARYRKHmIRBtrG\u2060Wo0A9YEHjWtWtLTPEz0N2X yesterday",
    secrets: [{ type: "github-token", value: "ghp_YARYRKHmIRBtrG\u2060Wo0A9YEHjWtWtLTPEz0N2X" }],
  },
  {
    name: "a live Stripe key glued to its vendor's name",
    text: "billing used stripesk_live_5gU84x2iqjSvZeJzkAOPBDs7 until the rotation",
    secrets: [{ type: "stripe-key", value: "sk_live_5gU84x2iqjSvZeJzkAOPBDs7" }],
  },
  {
    name: "an OpenAI project key glued to a word in capitals",
    text: "OPENAIsk-proj-tPAJbcZ1r3tLbgfNpahebtw5VDidyG-cqyoveWCz is the embedding key",
    secrets: [{ type: "openai-key", value: "sk-proj-tPAJbcZ1r3tLbgfNpahebtw5VDidyG-cqyoveWCz" }],
  },
  {
    name: "an Anthropic key glued to its label",
    text: "anthropickeysk-ant-api03-AFQDaoGOD1hP0LuK0o3gW0-dPXrtvS8ZlPz8f4CD5wRvwe6g7NgnMDOCoyvz",
    secrets: [{ type: "anthropic-key", value: "sk-ant-api03-AFQDaoGOD1hP0LuK0o3gW0-dPXrtvS8ZlPz8f4CD5wRvwe6g7NgnMDOCoyvz" }],
  },
  {
    name: "a Google API key glued to its label",
    text: "mapskeyAIzanGOUbtVyD3CGGROY7MAoujGjnCAqfJUOiKn in the old frontend",
    secrets: [{ type: "google-api-key", value: "AIzanGOUbtVyD3CGGROY7MAoujGjnCAqfJUOiKn" }],
  },
  {
    name: "an npm token glued to its label",
    text: "publish with npmtokennpm_OZ1TvZVVAxhPRxs52hNSIwi6HZSlGbCou9nX from the vault",
    secrets: [{ type: "npm-token", value: "npm_OZ1TvZVVAxhPRxs52hNSIwi6HZSlGbCou9nX" }],
  },
  {
    name: "a JWT glued to its cookie's name",
    text: "the proxy logged sessioneyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtYXlhIn0.s1gN4tUr3xQ9vB7kL2mZ for every request",
    secrets: [{ type: "jwt", value: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtYXlhIn0.s1gN4tUr3xQ9vB7kL2mZ" }],
  },
  {
    name: "an AWS key id without a digit glued to the word before it",
    text: "the billing export still authenticates as billingAKIAQWERTYUIOPLKJHGF.",
    secrets: [{ type: "aws-access-key", value: "AKIAQWERTYUIOPLKJHGF" }],
  },
  {
    name: "an AWS key id glued inside a run of capitals",
    text: "label on the sticky note: AWSKEYAKIA3NNZ4YDMP5WUSNQO",
    secrets: [{ type: "aws-access-key", value: "AKIA3NNZ4YDMP5WUSNQO" }],
  },
  {
    name: "a fullwidth AWS key id",
    text: "キー：ＡＫＩＡＯＮＰＰＮ６ＴＣＧ３ＪＡＲＶＺＴ（本番）",
    secrets: [{ type: "aws-access-key", value: "ＡＫＩＡＯＮＰＰＮ６ＴＣＧ３ＪＡＲＶＺＴ" }],
  },
  {
    name: "an AWS key id in mathematical bold letters",
    text: "styled in the chat as 𝐀𝐊𝐈𝐀𝐄𝐏𝐅𝐂𝐇𝐓𝐋𝐊𝐘𝐔𝐉𝟓𝐊𝐇𝐗𝐉 so the bot would not see it",
    secrets: [{ type: "aws-access-key", value: "𝐀𝐊𝐈𝐀𝐄𝐏𝐅𝐂𝐇𝐓𝐋𝐊𝐘𝐔𝐉𝟓𝐊𝐇𝐗𝐉" }],
  },
  {
    name: "a password key with a soft hyphen inside",
    text: "pass\u00ADword=Zx8!qLm2Tv",
    secrets: [{ type: "password-assignment", value: "Zx8!qLm2Tv" }],
  },
  {
    name: "a password key with a zero-width non-joiner inside, glued to the word before it",
    text: "sqladminpass\u200Cword=Pq7vR2nW9k",
    secrets: [{ type: "password-assignment", value: "Pq7vR2nW9k" }],
  },
  {
    name: "a password label spelt with Cyrillic look-alike letters",
    text: "\u0440\u0430ssword=Wq4$zN8mLp",
    secrets: [{ type: "password-assignment", value: "Wq4$zN8mLp" }],
  },
  {
    name: "a password after no-break spaces",
    text: "password\u00A0:\u00A0Kj7#mP2xWq",
    secrets: [{ type: "password-assignment", value: "Kj7#mP2xWq" }],
  },
  {
    name: "a token after ideographic spaces",
    text: "token\u3000=\u3000b8Wk2Lq9Zt4Rm7Xv",
    secrets: [{ type: "password-assignment", value: "b8Wk2Lq9Zt4Rm7Xv" }],
  },
  {
    name: "a password key spelt with digits for letters",
    text: "old router login: admin / passw0rd=Kq9vT2xLm4",
    secrets: [{ type: "password-assignment", value: "Kq9vT2xLm4" }],
  },
  {
    name: "a password under pwd after a colon without a space",
    text: "ftp account ci-upload pwd:Hx7mQ2vLz9 (rotate yearly)",
    secrets: [{ type: "password-assignment", value: "Hx7mQ2vLz9" }],
  },
  {
    name: "a password label in small capitals from a fancy-text generator",
    text: "ᴘᴀꜱꜱᴡᴏʀᴅ=Vn3kR8qWz5",
    secrets: [{ type: "password-assignment", value: "Vn3kR8qWz5" }],
  },
  {
    name: "a Slack bot token whose hyphens a word processor made non-breaking",
    text: "Pasted from the runbook: xoxb\u2011902318475621\u20114412907733018\u2011Ht6mW2qLz9Xv4Nb7Kr1Pd3Sj",
    secrets: [{ type: "slack-token", value: "xoxb\u2011902318475621\u20114412907733018\u2011Ht6mW2qLz9Xv4Nb7Kr1Pd3Sj" }],
  },
  {
    name: "a Slack user token with a zero-width joiner inside",
    text: "xoxp-915410948882-735533534933\u200D-0625481490377-53b736909d1d27a440be701684723897",
    secrets: [{ type: "slack-token", value: "xoxp-915410948882-735533534933\u200D-0625481490377-53b736909d1d27a440be701684723897" }],
  },
  {
    name: "a GitLab token glued to the word before it",
    text: "mirror uses gitlabglpat-clRPzQjSE_FztWudKIU5 (read_repository only)",
    secrets: [{ type: "gitlab-token", value: "glpat-clRPzQjSE_FztWudKIU5" }],
  },
];

export const OBFUSCATED_NON_SECRET_SAMPLES: readonly NonSecretSample[] = [
  { name: "words that end in pass", text: "bypass=cache, compass: north, overpass=closed, trespass: 2 warnings" },
  { name: "working directories under pwd", text: "PWD=/home/maya/code/acme-api\npwd: ~/code/acme-api\nOLDPWD=/home/maya" },
  { name: "test counts under pass", text: '{"pass": 22, "fail": 0, "skip": 3}\npass=41 fail=2' },
  { name: "pagination cursors under glued token keys", text: "pagetoken=eyJvZmZzZXQiOjEwMH0 nexttoken=42 synctoken=7" },
  { name: "counts under glued token keys", text: "maxtoken=4096 mintokens=16" },
  { name: "keys that end in key but are no credential", text: "keyboard=us, monkey=george, turkey: baked, hotkey=ctrl-k" },
  { name: "identifiers that hold vendor prefixes", text: "desk_test_integrationSuite01 and task-runner-for-build-2024 and highs_and_lows" },
  { name: "a region constant in capitals", text: "REGION=ASIAPACIFIC, EAST_ASIA_PACIFIC, SOUTHEASTASIA" },
  { name: "a fullwidth ticket id in Japanese", text: "ＰＡＹ－１４２３の修正は済み。リリースは１２月３日。" },
  { name: "emoji sequences and accented words", text: "👩‍💻 shipped the café menu; naïve résumé parsing fixed 👍🏽" },
  { name: "Russian prose about a password", text: "Пароль хранится в 1Password, токен обновляется каждый день." },
  { name: "Greek prose", text: "Η ΑΚΙΑ του Αιγαίου είναι όμορφη το καλοκαίρι." },
  { name: "a soft-hyphenated word", text: "The con\u00ADfig\u00ADu\u00ADra\u00ADtion file lives in ~/.config/memd." },
  { name: "zero-width joiners in a Devanagari word", text: "क्‍ष is written with a zero-width joiner." },
];
