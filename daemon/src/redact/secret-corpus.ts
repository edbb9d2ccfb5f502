/**
 * Realistic fake secrets in the places memd meets them (prompts, tool output, config files,
 * logs, transcript lines), and realistic non-secrets that must pass untouched. Exported so that
 * integration tests can push the same corpus through every path to the database, the logs and
 * the exports. All values are invented; none is a live credential. The AWS pair from the
 * Claude Code fixture ends in EXAMPLE on purpose: a redactor must not allowlist that word.
 */
import { COMMAND_LINE_NON_SECRET_SAMPLES, COMMAND_LINE_SECRET_SAMPLES } from "./command-line-corpus.js";
import { OBFUSCATED_NON_SECRET_SAMPLES, OBFUSCATED_SECRET_SAMPLES } from "./obfuscated-corpus.js";
import type { SecretType } from "./secret-types.js";

export interface SecretSample {
  /** What the sample stands for; the test name. */
  name: string;
  /** The text as memd would receive it. */
  text: string;
  /** The secrets in it, in order of appearance, each with the type it must be redacted as. */
  secrets: readonly { type: SecretType; value: string }[];
}

export interface NonSecretSample {
  name: string;
  text: string;
}

const RSA_KEY = `-----BEGIN RSA PRIVATE KEY-----
MIIEpAIBAAKCAQEApTyGJMuHbEL31IeL2HPcHyGcFRl1SPnXNYvMIHa/2o76umfX
fKm/r5kJP1VrT+1FJors/6ILi8IHn5kxsC7tVO/HbkQfyy/KV5zjR3j1twdTKWTd
dB+XhkAS1voQG6yyzyN9zHYIa4UOrGNATMuDJawTgsu8PO+799nKSNrh9UCauSDm
LhuVtcqcYezdZ/tDDj8hYs5suKcNd8Zra9A9sKPxZ9W3qLy7zKUVQDT7S8sTQCBN
R3YbDgbleph1QHt61QTC==
-----END RSA PRIVATE KEY-----`;

const OPENSSH_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz
c2gtZW4XATWS8PHp9NHfYjFM5DI4pZj59fhZ5R1Py4oJe2JbmPTuSgR7cMy+UcU3
zr1ZtoLuCr64CxqlIOdNKhiFXiQ2hzT/pLjHX2JiCLhKcIhP6Br1iQFeOUhGXZnn
al5WisCgEB==
-----END OPENSSH PRIVATE KEY-----`;

// As it appears inside a JSON string (a service-account file, a raw transcript line): escaped newlines.
const EC_KEY_ESCAPED = String.raw`-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBxCY8f5N3/ynbdrZRzsGQBJg3UHKwkflF6XUi5AhuqpfEnbtXAqwK8j\nZfALhLSzFyCmmdKTxp/TkSF2RCdKDFRuNw5GCf+hA6ILI8gJhead6/wJ9kFZJSqg\n-----END EC PRIVATE KEY-----`;

const PGP_KEY = `-----BEGIN PGP PRIVATE KEY BLOCK-----

lQOYBGcNmRB9H+iMb+lk777PZnK8Cl6J5ixaaJLShuQjOud/+yDUA+5zmS1swoPq
ApryPZBlgvIyxJu2jGjNGkTfi3oYv2DzaKG05Rk+GQV81rkmghzem9yPVUJa/c5q
52RYfLWrLoevhZC0x0awirH/juQbLifxz53nCQE28+AJy75fNcTTN6KFAQdEmQg3
=OMJm
-----END PGP PRIVATE KEY BLOCK-----`;

// Pasted without its END line.
const TRUNCATED_KEY = `-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCjof8efD0nHCY/1Kgd2vd/Er1uyZAlIa/
ZnYd7chlN/Xc+1HSyGbDS1GHXy5oOKVqYX7Enwvq4VNAKjKs1Pawtn3LG8Zv5Ypu
8D0fzFwE7IHgYIruiqFhojmAIDdN87xg3/Q/XBmTepo6uKZyUf0IE9pU2NJhKaM1`;

const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c3JfODIxMyIsInJvbGUiOiJhZG1pbiIsImlhdCI6MTc2MDQzNDg3MiwiZXhwIjoxNzYwNDM1NzcyfQ.F4LmbfuNRypsHt83fS-Pq19YCgyy8L6AMs92Gwgscgs";
const JWT_COOKIE =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzaWQiOiJjMGZmZWUiLCJhdWQiOiJhY21lLWFwaSIsImV4cCI6MTc2MDQzOTk5OX0._P6OjrZYazw5-eYnSzv97dFhvpMCNqwyA_bhqrAGLup";

// Transcript line 33 of the Claude Code fixture, verbatim.
const FIXTURE_LINE_33 =
  '{"parentUuid":"8c589c60-e07e-443b-9780-065432d8aef0","isSidechain":false,"promptId":"b0bd1a34-50df-43ac-8dda-942c36e420e7","type":"user","message":{"role":"user","content":"Next the CI deploy job needs AWS and GitHub creds. These are the ones from the old Jenkins box, just put them in .github/workflows/deploy.yml: AWS_ACCESS_KEY_ID=AKIAJ6VWUWJ3TEXAMPLE AWS_SECRET_ACCESS_KEY=43ieH5ozoh2ZJqbOwMBGvjyP3wLQSiEXAMPLEKEY GH_TOKEN=ghp_XDX2sIDNA8ShjAA1R3FXitxvfvGzWAQAHwke"},"uuid":"211b4e73-816b-4730-8c3a-b2811e53f0f0","timestamp":"2026-10-14T09:41:12.300Z","permissionMode":"default","userType":"external","entrypoint":"cli","cwd":"/home/maya/code/acme-api","sessionId":"ad7140d9-2cc2-4134-8bae-6b90ba3dede2","version":"2.1.294","gitBranch":"feat/auth-refactor","slug":"brisk-amber-heron"}';

export const SECRET_SAMPLES: readonly SecretSample[] = [
  {
    name: "the fixture's pasted CI credentials in a raw transcript line",
    text: FIXTURE_LINE_33,
    secrets: [
      { type: "aws-access-key", value: "AKIAJ6VWUWJ3TEXAMPLE" },
      { type: "aws-secret-key", value: "43ieH5ozoh2ZJqbOwMBGvjyP3wLQSiEXAMPLEKEY" },
      { type: "github-token", value: "ghp_XDX2sIDNA8ShjAA1R3FXitxvfvGzWAQAHwke" },
    ],
  },
  {
    name: "an AWS credentials file",
    text: "$ cat ~/.aws/credentials\n[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nregion = eu-central-1\n",
    secrets: [
      { type: "aws-access-key", value: "AKIAIOSFODNN7EXAMPLE" },
      { type: "aws-secret-key", value: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
    ],
  },
  {
    name: "temporary credentials in `aws sts assume-role` output",
    text: '{\n    "Credentials": {\n        "AccessKeyId": "ASIALJ6VWUWJ3T43RPD4",\n        "SecretAccessKey": "x6n1nf2xv54WCA+7e56W8zNIQt3uL4FFQKoKGwRD",\n        "SessionToken": "IQoJb3JpZ2luX2VjE/5WdR16ePlljivghZ4fXfeTkYpIygfdM7ENA8d5vFldPGYYJvW5hANsbEvrSFagEaBp0vXnJaE/9I0MyTLUyi0kn1Gnt11CuZyzaA3U2OLzu6UQBGSyLvVSskUVINx+ZmQF9oGxLUczZ",\n        "Expiration": "2026-10-14T10:41:12Z"\n    }\n}',
    secrets: [
      { type: "aws-access-key", value: "ASIALJ6VWUWJ3T43RPD4" },
      { type: "aws-secret-key", value: "x6n1nf2xv54WCA+7e56W8zNIQt3uL4FFQKoKGwRD" },
      {
        type: "password-assignment",
        value:
          "IQoJb3JpZ2luX2VjE/5WdR16ePlljivghZ4fXfeTkYpIygfdM7ENA8d5vFldPGYYJvW5hANsbEvrSFagEaBp0vXnJaE/9I0MyTLUyi0kn1Gnt11CuZyzaA3U2OLzu6UQBGSyLvVSskUVINx+ZmQF9oGxLUczZ",
      },
    ],
  },
  {
    name: "an unlabelled AWS key pair from the IAM console's credentials.csv",
    text: "User name,Access key ID,Secret access key\ndeploy-bot,AKIA6LNCZKYWHJPMCCUH,AhAO9CbBVbodvkAbSMbeMbuhTbSCC6887B86mhck\n",
    secrets: [
      { type: "aws-access-key", value: "AKIA6LNCZKYWHJPMCCUH" },
      { type: "aws-secret-key", value: "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" },
    ],
  },
  {
    name: "a fine-grained GitHub token piped into gh",
    text: "echo 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 | gh auth login --with-token",
    secrets: [
      {
        type: "github-token",
        value: "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",
      },
    ],
  },
  {
    name: "a GitHub OAuth token in gh's hosts.yml",
    text: "github.com:\n    user: maya\n    oauth_token: gho_LE7oljMXHhlyny1BqMdPmpvz61GtWhkdL7UK\n    git_protocol: ssh\n",
    secrets: [{ type: "github-token", value: "gho_LE7oljMXHhlyny1BqMdPmpvz61GtWhkdL7UK" }],
  },
  {
    name: "a GitHub App installation token in a git remote URL",
    text: "fatal: unable to access 'https://x-access-token:ghs_oaM0nQHCKbU8iuGbTDvGqwwKjZCHc1gzaXwo@github.com/acme/acme-api.git/': The requested URL returned error: 403",
    secrets: [{ type: "github-token", value: "ghs_oaM0nQHCKbU8iuGbTDvGqwwKjZCHc1gzaXwo" }],
  },
  {
    name: "a GitLab personal access token in a clone command",
    text: "git clone https://oauth2:glpat-XKzMg5dniWVdGNIdss8z@gitlab.com/acme/infra.git && cd infra",
    secrets: [{ type: "gitlab-token", value: "glpat-XKzMg5dniWVdGNIdss8z" }],
  },
  {
    name: "an OpenAI project key exported in a shell",
    text: "export OPENAI_API_KEY=sk-proj-q_HG7AaXqr31KVfFDw65lSfvVZQwPXOeXWWj6IHwXxU_LHv4jgqV-6tEniGxFqikNA_QojKCy0j\nnpm run embed",
    secrets: [
      { type: "openai-key", value: "sk-proj-q_HG7AaXqr31KVfFDw65lSfvVZQwPXOeXWWj6IHwXxU_LHv4jgqV-6tEniGxFqikNA_QojKCy0j" },
    ],
  },
  {
    name: "a legacy OpenAI key hard-coded in Python",
    text: 'client = OpenAI(api_key="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")  # TODO move to env',
    secrets: [{ type: "openai-key", value: "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" }],
  },
  {
    name: "an Anthropic key echoed in an error message",
    text: "AuthenticationError: 401 invalid x-api-key (key sk-ant-api03-ZytcHJZu5f1y4oLhoAGnSY4aOxuWabZ1My2PR8YV9QhAoC2iPDEZ7EiniOAI60Md2Cdf1nrqwhPD-9aZClsNQ4-hQNbygAA was revoked)",
    secrets: [
      {
        type: "anthropic-key",
        value: "sk-ant-api03-ZytcHJZu5f1y4oLhoAGnSY4aOxuWabZ1My2PR8YV9QhAoC2iPDEZ7EiniOAI60Md2Cdf1nrqwhPD-9aZClsNQ4-hQNbygAA",
      },
    ],
  },
  {
    name: "a Slack bot token in a .env file",
    text: "SLACK_BOT_TOKEN=xoxb-623785488141-1117117179733-89f4T98igYsN0NQsGQLFyAna\nSLACK_CHANNEL=#deploys",
    secrets: [{ type: "slack-token", value: "xoxb-623785488141-1117117179733-89f4T98igYsN0NQsGQLFyAna" }],
  },
  {
    name: "a Slack user token in a curl header",
    text: 'curl -s -H "Authorization: Bearer xoxp-334757037157-743981858090-2739175039354-36ba8fb3c9c9c145a5d8d3c4039e068e" https://slack.com/api/conversations.list',
    secrets: [
      { type: "slack-token", value: "xoxp-334757037157-743981858090-2739175039354-36ba8fb3c9c9c145a5d8d3c4039e068e" },
    ],
  },
  {
    name: "a Slack app-level token in prose",
    text: "Socket mode needs the app token xapp-1-A0P7M6C2POA-8557398730046-c8e620180d796929fe252a94609edb05fae93f0631e616e8b1133d3fff56a34a, not the bot token.",
    secrets: [
      {
        type: "slack-token",
        value: "xapp-1-A0P7M6C2POA-8557398730046-c8e620180d796929fe252a94609edb05fae93f0631e616e8b1133d3fff56a34a",
      },
    ],
  },
  {
    name: "a Slack incoming webhook, keeping its host",
    text: "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/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 # #alerts channel",
    secrets: [{ type: "slack-webhook", value: "T0LOPHWGA/B0ZOPBJLRM/vOkQB9Vfju1Dt0B0WQzCXZG4" }],
  },
  {
    name: "an RSA private key pasted into a prompt",
    text: `Here is the deploy key, add it to the runner:\n${RSA_KEY}\nThanks!`,
    secrets: [{ type: "private-key", value: RSA_KEY }],
  },
  {
    name: "an OpenSSH private key printed by cat",
    text: `$ cat ~/.ssh/id_ed25519\n${OPENSSH_KEY}\n$ ssh-add ~/.ssh/id_ed25519`,
    secrets: [{ type: "private-key", value: OPENSSH_KEY }],
  },
  {
    name: "an EC private key inside a JSON string",
    text: `{"type":"service_account","project_id":"acme-prod","private_key":"${EC_KEY_ESCAPED}\\n","client_email":"ci@acme-prod.iam.gserviceaccount.com"}`,
    secrets: [{ type: "private-key", value: EC_KEY_ESCAPED }],
  },
  {
    name: "a PGP private key block",
    text: `gpg --export-secret-keys --armor maya@acme.dev\n${PGP_KEY}\n`,
    secrets: [{ type: "private-key", value: PGP_KEY }],
  },
  {
    name: "a private key pasted without its END line",
    text: `The key starts like this:\n${TRUNCATED_KEY}\n\nwhat format is that?`,
    secrets: [{ type: "private-key", value: TRUNCATED_KEY }],
  },
  {
    name: "a JWT in an Authorization header",
    text: `GET /api/v1/me HTTP/1.1\nHost: api.acme.dev\nAuthorization: Bearer ${JWT}\nAccept: application/json`,
    secrets: [{ type: "jwt", value: JWT }],
  },
  {
    name: "a JWT session cookie in a log line",
    text: `2026-10-14T09:52:03.114Z WARN set-cookie session=${JWT_COOKIE}; Path=/; HttpOnly; SameSite=Lax`,
    secrets: [{ type: "jwt", value: JWT_COOKIE }],
  },
  {
    name: "the password of a Postgres URL, keeping user and host",
    text: "DATABASE_URL=postgres://acme_app:Vx9qT2pLm7Rk@db.internal:5433/acme?sslmode=disable",
    secrets: [{ type: "url-password", value: "Vx9qT2pLm7Rk" }],
  },
  {
    name: "the password of a Redis URL with an empty user",
    text: "ioredis connecting to redis://:Zr8kQp3vW1@cache.internal:6379/0 (attempt 3)",
    secrets: [{ type: "url-password", value: "Zr8kQp3vW1" }],
  },
  {
    name: "a MongoDB password with an unencoded @",
    text: 'mongosh "mongodb+srv://maya:p@ss-w0rd-2026@cluster0.ab1cd.mongodb.net/acme"',
    secrets: [{ type: "url-password", value: "p@ss-w0rd-2026" }],
  },
  {
    name: "a database password in a .env file",
    text: "DB_HOST=localhost\nDB_PORT=5433\nDB_PASSWORD=h8C0G0UoQkeTjp8d\nDB_NAME=acme",
    secrets: [{ type: "password-assignment", value: "h8C0G0UoQkeTjp8d" }],
  },
  {
    name: "a password in an INI section",
    text: "[database]\nuser = acme\npassword = correct-horse-battery-staple\nport = 5433\n",
    secrets: [{ type: "password-assignment", value: "correct-horse-battery-staple" }],
  },
  {
    name: "a password in docker-compose YAML",
    text: "  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: acme\n      POSTGRES_PASSWORD: devonly9f3k\n    ports:\n      - \"5433:5432\"",
    secrets: [{ type: "password-assignment", value: "devonly9f3k" }],
  },
  {
    name: "an OAuth client secret in JSON",
    text: '{"web":{"client_id":"8213-acme.apps.googleusercontent.com","client_secret":"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","redirect_uris":["http://localhost:5173/callback"]}}',
    secrets: [{ type: "password-assignment", value: "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" }],
  },
  {
    name: "a password given as a CLI flag",
    text: "docker login --username maya --password 3kT9vQx2LmZp registry.acme.dev",
    secrets: [{ type: "password-assignment", value: "3kT9vQx2LmZp" }],
  },
  {
    name: "a password in a SQL Server connection string",
    text: "Server=tcp:acme.database.windows.net,1433;User ID=acme;Password=Fz3$kL9q!xR;Encrypt=True;",
    secrets: [{ type: "password-assignment", value: "Fz3$kL9q!xR" }],
  },
  {
    name: "an API token in a query string",
    text: "GET https://export.acme.dev/api/v1/export?token=02fb371ae7bea3f668a57a3fe55ff428&format=jsonl 200 OK",
    secrets: [{ type: "password-assignment", value: "02fb371ae7bea3f668a57a3fe55ff428" }],
  },
  {
    name: "a hex memd token in an Authorization header",
    text: "curl --unix-socket ~/.memd/memd.sock -H 'Authorization: Bearer 19e24d2d0304fe2f599a73c7c41a597acb3c25982a35eb1276aa9904f908ca76' http://memd/healthz",
    secrets: [{ type: "bearer-token", value: "19e24d2d0304fe2f599a73c7c41a597acb3c25982a35eb1276aa9904f908ca76" }],
  },
  {
    name: "Basic credentials in an Authorization header",
    text: '"headers": {"Authorization": "Basic ZGVwbG95LWJvdDpwaGxuNDY4Nm5WeE9SMTA0NkhOeA==", "Accept": "application/json"}',
    secrets: [{ type: "bearer-token", value: "ZGVwbG95LWJvdDpwaGxuNDY4Nm5WeE9SMTA0NkhOeA==" }],
  },
  {
    name: "a bearer token in a proxy log",
    text: "[proxy] 401 upstream rejected Bearer tok_o7RrU5YKyyQHxhDo2X93cjhls45G for /v2/orders",
    secrets: [{ type: "bearer-token", value: "tok_o7RrU5YKyyQHxhDo2X93cjhls45G" }],
  },
  {
    name: "a live Stripe secret key in a .env file",
    text: "STRIPE_SECRET_KEY=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",
    secrets: [
      {
        type: "stripe-key",
        value: "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",
      },
    ],
  },
  {
    name: "a restricted Stripe key in prose",
    text: "Use the restricted key 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 for the reporting job only.",
    secrets: [
      {
        type: "stripe-key",
        value: "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",
      },
    ],
  },
  {
    name: "a Stripe test key on the stripe CLI",
    text: "stripe listen --api-key sk_test_wj8wAQOeZKQ3eTwUxRpbbirw --forward-to localhost:3000/webhooks/stripe",
    secrets: [{ type: "stripe-key", value: "sk_test_wj8wAQOeZKQ3eTwUxRpbbirw" }],
  },
  {
    name: "a Stripe webhook signing secret",
    text: "> Ready! Your webhook signing secret is whsec_0oZu5KOuTQJ1vqCkF64EgOY3mncWSMn2 (^C to quit)",
    secrets: [{ type: "stripe-key", value: "whsec_0oZu5KOuTQJ1vqCkF64EgOY3mncWSMn2" }],
  },
  {
    name: "a Google API key in a query string",
    text: "fetch('https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key=AIzaikExMAd6DyHOMoZ8rUxq_bxKtsfLyzFLBip')",
    secrets: [{ type: "google-api-key", value: "AIzaikExMAd6DyHOMoZ8rUxq_bxKtsfLyzFLBip" }],
  },
  {
    name: "an npm token in .npmrc",
    text: "//registry.npmjs.org/:_authToken=npm_UAnlWrKd79Uup735HJFatmxAduVWq7ro3jxb\n@acme:registry=https://npm.pkg.github.com",
    secrets: [{ type: "npm-token", value: "npm_UAnlWrKd79Uup735HJFatmxAduVWq7ro3jxb" }],
  },
  {
    name: "an unlabelled random signing value in a log line",
    text: "webhook signature mismatch: expected lstkQ1YwJEdw9vWQfwvAAQwTuTyfZJiuQpnvm76L, check the partner portal",
    secrets: [{ type: "high-entropy", value: "lstkQ1YwJEdw9vWQfwvAAQwTuTyfZJiuQpnvm76L" }],
  },
  {
    name: "the output of openssl rand -base64",
    text: "$ openssl rand -base64 32\nXb8XLNEoUm+dy+KPVLHk9NtDBzfdMaDN5x4fSQy17i5=\nuse that as the cookie secret in prod",
    secrets: [{ type: "high-entropy", value: "Xb8XLNEoUm+dy+KPVLHk9NtDBzfdMaDN5x4fSQy17i5=" }],
  },
  {
    name: "base64 of an env line that holds a token",
    text: "The CI variable is ZXhwb3J0IEdIX1RPS0VOPWdocF9MSVJIcjU2cHE3M0hVdkF5Wm1PRUsxSTZyc1hUV2ZIc2RDUkk= (base64).",
    secrets: [
      {
        type: "high-entropy",
        value: "ZXhwb3J0IEdIX1RPS0VOPWdocF9MSVJIcjU2cHE3M0hVdkF5Wm1PRUsxSTZyc1hUV2ZIc2RDUkk=",
      },
    ],
  },
  ...COMMAND_LINE_SECRET_SAMPLES,
  ...OBFUSCATED_SECRET_SAMPLES,
];

export const NON_SECRET_SAMPLES: readonly NonSecretSample[] = [
  { name: "a full git commit SHA", text: "Reverted 9fceb02d0ae598e95dc970b74767f19372d61af8 after the deploy failed." },
  { name: "a short SHA and a branch", text: "Fixed in a1b2c3d on feat/auth-refactor, cherry-picked to release/2026.10." },
  { name: "a session UUID", text: "Session ad7140d9-2cc2-4134-8bae-6b90ba3dede2 resumed with source=resume." },
  { name: "ULIDs", text: "Memory 01JA2Q7Z8X9K3M4N5P6R7S8T9V superseded 01JA2Q80C1D2E3F4G5H6J7K8M9." },
  { name: "a transcript path", text: "/home/maya/.claude/projects/-home-maya-code-acme-api/ad7140d9-2cc2-4134-8bae-6b90ba3dede2.jsonl" },
  { name: "a source path with line and column", text: "src/middleware/requireAuth.ts:42:7 - error TS2345: Argument of type 'string' is not assignable." },
  { name: "a macOS path with mixed case and digits", text: "Using /Users/Maya/Library/Caches/ms-playwright/chromium-1097/chrome-mac/Chromium.app" },
  { name: "a Windows path", text: String.raw`C:\Users\Maya\AppData\Roaming\npm\node_modules\@anthropic-ai\claude-code\cli.js` },
  { name: "URLs without credentials", text: "See https://github.com/acme/acme-api/pull/1423/files and http://localhost:5173/@vite/client, also https://maya@bitbucket.org/acme/api.git" },
  { name: "a document link with a random-looking id", text: "Spec: https://docs.google.com/document/d/1U1RGAehQwRypUTovF1KRlpiOFze0b-_2gc6fAH0KY0k/edit#heading=h.4x8k" },
  { name: "error codes", text: "better-sqlite3 threw SQLITE_BUSY: database is locked; ECONNRESET, ERR_REQUIRE_ESM and SQLITE_BUSY_SNAPSHOT are unrelated." },
  { name: "ticket ids", text: "PAY-1423 and DATA-350 are blocked on SEC-77 and SNYK-JS-MINIMIST-2429795." },
  { name: "build commands", text: "make migrate-up && pnpm typecheck && pnpm test -- --run src/auth" },
  { name: "hex colours", text: "Brand colour #1e90ff, hover #FF6A00, border #ccc, shadow rgba(0,0,0,.2)." },
  { name: "version strings", text: "Upgraded vitest 4.1.12 -> 4.2.0-beta.3 on node v20.19.4 with Claude Code 2.1.294." },
  { name: "base64 of short words", text: "aGVsbG8= is hello and bWVtZA== is memd." },
  { name: "base64 of a sentence", text: "The test fixture is VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw== decoded." },
  { name: "a Subresource Integrity hash", text: '"integrity": "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="' },
  { name: "a sha256 digest and an image digest", text: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt; pulled ghcr.io/acme/api@sha256:3f1c9a7e4b2d8f6a0c5e9b7d3a1f8e6c4b2a0d9f7e5c3a1b8d6f4e2c0a9b7d5e" },
  { name: "type annotations and code that name secrets", text: "interface Config { token: string; password?: string }\nconst token = await fetchToken();\nconst secret = process.env.JWT_SECRET;\nreturn { token: row.token };" },
  { name: "LLM token counts and a token endpoint", text: "max_tokens: 4096, CHARS_PER_TOKEN = 4, MAX_OUTPUT_TOKEN=8192, token_url=https://auth.acme.dev/oauth/token" },
  { name: "prose after a secret-sounding label", text: "Token: see the runbook for how to rotate it.\nPassword: must be at least twelve characters." },
  { name: "a Postgres authentication error", text: 'psql: error: FATAL:  password authentication failed for user "acme_app"' },
  { name: "references to where secrets live", text: "GH_TOKEN: ${{ secrets.GH_TOKEN }}\nDB_PASSWORD=${DB_PASSWORD}\npassword: <your password>\ncurl -H \"Authorization: Bearer $MEMD_TOKEN\" http://127.0.0.1:7077" },
  { name: "an environment dump", text: "PWD=/home/maya/code/acme-api\nOLDPWD=/home/maya\nSHELL=/bin/zsh\nLANG=en_US.UTF-8" },
  { name: "a password read from stdin", text: "echo \"$CR_PAT\" | docker login ghcr.io -u maya --password-stdin" },
  { name: "long identifiers", text: "getUserProfileByIdAndOrganization2 calls ReactComponentV2WithForwardedRef; MyFeature_ShouldReturn404_WhenUserIsMissing passes." },
  { name: "package and ref paths", text: "import { S3Client } from 'aws-sdk/client-s3/dist-cjs/S3Client'; pushed refs/heads/feat/JIRA-1234-Add-OAuth2-Support" },
  { name: "timestamps and addresses", text: "2026-10-14T09:41:12.300Z accepted 10.0.3.17:5433 -> [::1]:7077 in 12.5ms" },
  { name: "a pagination cursor", text: "ListMemories next_page_token=eyJvZmZzZXQiOjUwfQ page_size=50" },
  { name: "prose about bearer tokens", text: "The API expects a bearer token in the Authorization header; see RFC 6750." },
  { name: "Kubernetes names", text: "pod api-7d9f8b6c5d-x2kqj in namespace acme-prod restarted (OOMKilled, exit code 137)." },
  ...COMMAND_LINE_NON_SECRET_SAMPLES,
  ...OBFUSCATED_NON_SECRET_SAMPLES,
];
