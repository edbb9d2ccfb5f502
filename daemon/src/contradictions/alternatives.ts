/**
 * Tools that stand in for each other: a project has one auth provider, one package manager, one
 * CI, so "auth is Clerk" and "auth is Auth0" cannot both hold. Each line is a slot:
 * `name: cue words | members`. A member's aliases are joined with "/" (the first is how it is
 * named in a reason); a member marked "~" is also an ordinary word ("Render", "main", "spaces") and
 * counts only in a memory that holds one of its slot's cue words. A member that fills several slots
 * (Datadog takes logs, errors and metrics) is placed by the cue words of its sentence; where its
 * sentence has none, it may be in any of them.
 *
 * Kept to the vocabulary of software work, as the recall thesaurus is: a slot earns its place
 * when a developer would say its members exclude each other in one codebase.
 */
import { escapeRegExp } from "../escape-reg-exp.js";

const SLOT_LINES = `
auth provider: auth, authentication, login, sign, sso, identity | Clerk, Auth0, Okta, Cognito, Firebase Auth, Keycloak, Supabase Auth, NextAuth/Auth.js, ~Lucia, custom JWT, WorkOS, Stytch, ~Ory, FusionAuth, ~Passport
js package manager: package, install, lockfile, monorepo, workspace | npm, pnpm, yarn/yarn berry, ~bun
python package manager: package, install, dependencies, lock | pip, poetry, uv, pipenv, conda, pdm, rye
unit test runner: test, tests, unit | Jest/ts-jest, Vitest, ~Mocha, Jasmine, ~AVA, pytest, unittest
e2e test runner: e2e, end-to-end, browser | Playwright, Cypress, Selenium, WebdriverIO, TestCafe, ~Detox
ci: ci, pipeline, build, builds | GitHub Actions, GitLab CI, CircleCI, Jenkins, Buildkite, Travis CI/Travis, ~Drone, Azure Pipelines, Bitbucket Pipelines, TeamCity
gitops: deploy, deploys, cd, gitops | Argo CD/ArgoCD, ~Flux, Spinnaker, Octopus Deploy
hosting: deploy, deployed, deploys, hosted, host, hosting, runs | Vercel, Netlify, Cloudflare Pages, Heroku, ~Render, Fly.io, Railway, AWS Amplify, GitHub Pages, Firebase Hosting, App Engine, Elastic Beanstalk
site generator: docs, site, blog, documentation | Docusaurus, Astro Starlight/Starlight, ~Hugo, Jekyll, Gatsby, MkDocs, VitePress, Eleventy, ~Ghost, WordPress, ~Sphinx
feature flags: flag, flags, toggle, toggles | LaunchDarkly, ~Unleash, Flagsmith, ConfigCat, GrowthBook, ~Split
experiments: experiment, experiments, ab | Statsig, Optimizely, VWO
logs: log, logs, logging | Datadog, Grafana Loki/Loki, Papertrail, Logtail, Splunk, CloudWatch, ELK, Sumo Logic, New Relic, Better Stack
error tracking: error, errors, exception, exceptions, crash, crashes | Sentry, Rollbar, Bugsnag, Honeybadger, Raygun, Datadog, New Relic
metrics: metric, metrics, apm, monitoring, trace, traces, tracing, dashboards | Datadog, New Relic, Prometheus, Honeycomb, Dynatrace, AppDynamics
uptime: uptime, status | Pingdom, Better Stack, UptimeRobot, StatusCake, Checkly
on-call: on-call, oncall, paging, pager, rotation, incident | PagerDuty, Opsgenie, VictorOps, incident.io, Grafana OnCall
state management: state, store, stores | Redux/Redux Toolkit, Zustand, MobX, Recoil, Jotai, ~Pinia, Vuex, NgRx, XState
server state: fetching, server, cache, query | TanStack Query/React Query, SWR, Apollo Client, RTK Query
orm: orm, database, data, migrations, migration, query, models | Prisma, Drizzle, TypeORM, Sequelize, Knex, MikroORM, Objection, SQLAlchemy, GORM, ActiveRecord, Hibernate
relational database: database, db, primary, sql, data | Postgres/PostgreSQL, MySQL, MariaDB, SQLite, SQL Server/MSSQL, ~Oracle, CockroachDB
document database: database, db, documents, collection | MongoDB, DynamoDB, Firestore, CouchDB, Cassandra
cache: cache, caching, cached, session, sessions, store, counters, kv | Redis, Memcached, Valkey, KeyDB, Dragonfly
broker: broker, queue, queues, messaging, messages, topic, topics, events | RabbitMQ, Kafka, SQS, Redis, NATS, Google Pub/Sub/Pub/Sub, ActiveMQ, Amazon MQ
api style: api, endpoints, endpoint | REST, GraphQL, gRPC, tRPC, SOAP, JSON-RPC
search engine: search, index, indexes | Elasticsearch, OpenSearch, Meilisearch, Algolia, Typesense, Solr
object storage: storage, bucket, uploads, files, objects, blobs | S3, GCS/Google Cloud Storage, Azure Blob Storage, R2, MinIO, Backblaze B2
cloud: cloud, hosted, region, account | AWS, GCP/Google Cloud, Azure, DigitalOcean, Hetzner, Linode
email: email, emails, mail, mails, transactional | SendGrid, Postmark, Mailgun, Amazon SES/SES, Mailchimp, Mandrill, ~Resend, SparkPost
sms: sms, text, verification | Twilio, Vonage, MessageBird
payments: payment, payments, checkout, billing, charges | Stripe, Adyen, Braintree, PayPal, ~Paddle, ~Mollie, ~Square, Lemon Squeezy
secrets: secret, secrets, credentials | HashiCorp Vault/Vault, AWS Secrets Manager/Secrets Manager, Parameter Store/SSM, ~Doppler, 1Password, Infisical, SOPS, Azure Key Vault
bundler: bundle, bundling, bundler, build | Webpack, Vite, ~Rollup, esbuild, ~Parcel, Turbopack, Rspack
linter: lint, linted, linter, linting | ESLint, ~Biome, TSLint, Oxlint, ~Ruff, Flake8, Pylint, golangci-lint, RuboCop
formatter: format, formatted, formatter, formatting | Prettier, ~Biome, dprint, ~Black, ~Ruff/ruff format, YAPF, autopep8, gofmt
monorepo tool: monorepo, workspace, workspaces | Lerna, Nx, Turborepo, ~Rush, ~moon, ~Pants
dependency updates: dependency, dependencies, updates, prs | Dependabot, Renovate, Greenkeeper
local containers: containers, container, local, docker | Docker Desktop, OrbStack, Colima, Podman, Rancher Desktop
ingress: ingress | ingress-nginx/nginx ingress, Traefik, ~Contour, ~Kong, HAProxy Ingress, ~Emissary
service mesh: mesh | Istio, Linkerd, Consul Connect, Cilium
i18n: i18n, translations, translation, locales, localization | react-intl, i18next/react-i18next, Lingui, vue-i18n, next-intl
dates: date, dates, time, times | moment/moment.js, date-fns, Day.js/dayjs, Luxon
websockets: websocket, websockets, realtime | socket.io, ~ws, uWebSockets, SockJS, ~Pusher, ~Ably
logging library: log, logs, logging, logger | logrus, ~zap, zerolog, slog, pino, winston, bunyan, structlog, loguru, log4j
jvm build: build, builds, built | Maven, Gradle, sbt, ~Ant
image cdn: image, images, thumbnails | Imgix, Cloudinary, ImageKit, Thumbor, Cloudflare Images
http client: http, requests, client | axios, ~got, ~ky, superagent, node-fetch, undici
cookie consent: consent, cookie, cookies | OneTrust, Cookiebot, Osano
css: css, styles, styling | Tailwind, Bootstrap, Bulma, styled-components, ~Emotion, CSS Modules, vanilla-extract
web framework: server, framework, backend, http | ~Express, Fastify, Koa, Hapi, NestJS, Django, Flask, FastAPI, ~Rails, Spring Boot, ~Gin, Laravel
frontend framework: frontend, ui, framework, app | ~React, Vue, ~Angular, Svelte, SolidJS, Preact, ~Ember
artifacts: artifacts, artifact, binaries, packages | Artifactory, ~Nexus, GitHub Packages, npmjs
infrastructure as code: infrastructure, iac | Terraform, OpenTofu, Pulumi, CloudFormation, CDK
password hashing: hash, hashed, hashing, passwords, keys | bcrypt, argon2/argon2id, scrypt, PBKDF2, SHA-256, SHA-1, MD5
branch: branch, branches, base | ~main, ~master, ~develop, ~trunk
cookie samesite: samesite | ~Lax, ~Strict
indentation: indent, indented, indentation | ~tabs, ~spaces
tier: status, tier, level, membership, member, elite | ~bronze, ~silver, ~gold, ~platinum, ~diamond
room: room, hangs, hanging, hung, moved, placed, put, wall, sits, keep | living room, bedroom, kitchen, bathroom, dining room, hallway, ~office, ~garage, basement, attic, guest room, nursery
merge strategy: merge, merged, merging, pr, prs, branches, branch | ~squash/squashed/squashing/squash merge/squash merges, ~merge commits/merge commit, ~rebase/rebased/rebase merge
`;

/** A member of one or more slots, found in a text. */
export interface AlternativeMention {
  /** The member's first alias, as a reason names it. */
  value: string;
  /** Every slot it belongs to. */
  slots: readonly string[];
  start: number;
  end: number;
}

interface Slot {
  name: string;
  cues: ReadonlySet<string>;
}

interface Member {
  value: string;
  aliases: string[];
  slots: string[];
  /** An ordinary word too: needs a cue word of one of its slots in the memory. */
  needsCue: boolean;
}

function compile(lines: string): { slots: Map<string, Slot>; members: Member[]; pattern: RegExp } {
  const slots = new Map<string, Slot>();
  const byValue = new Map<string, Member>();
  for (const line of lines.split("\n").map((l) => l.trim()).filter((l) => l !== "")) {
    const match = /^([^:]+):([^|]*)\|(.*)$/.exec(line);
    if (!match) throw new Error(`slot line "${line}" is not "name: cues | members"`);
    const name = (match[1] as string).trim();
    const cues = new Set((match[2] as string).split(",").map((c) => c.trim().toLowerCase()).filter((c) => c !== ""));
    slots.set(name, { name, cues });
    for (const entry of (match[3] as string).split(",")) {
      const needsCue = entry.trim().startsWith("~");
      const aliases = entry.replace("~", "").split("/").map((a) => a.trim()).filter((a) => a !== "");
      const value = aliases[0];
      if (value === undefined) continue;
      const key = value.toLowerCase();
      const member = byValue.get(key) ?? { value, aliases: [], slots: [], needsCue };
      for (const alias of aliases) if (!member.aliases.includes(alias.toLowerCase())) member.aliases.push(alias.toLowerCase());
      if (!member.slots.includes(name)) member.slots.push(name);
      byValue.set(key, member);
    }
  }
  const members = [...byValue.values()];
  // Longest aliases first, so that "Grafana Loki" wins over "Loki" and "ruff format" over "Ruff".
  const aliases = members.flatMap((m) => m.aliases).sort((a, b) => b.length - a.length);
  const escaped = aliases.map((a) => escapeRegExp(a).replace(/ /g, "[\\s-]+"));
  return { slots, members, pattern: new RegExp(`(?<![\\w./@-])(?:${escaped.join("|")})(?![\\w@]|[./-]\\w)`, "gi") };
}

const COMPILED = compile(SLOT_LINES);
const MEMBER_BY_ALIAS = new Map(COMPILED.members.flatMap((m) => m.aliases.map((a) => [a, m] as const)));

/**
 * Every slot member a text names, in order, with the slots it fills. `memoryWords` are the
 * lower-case words of the whole memory, which a member marked "~" needs a cue word among.
 */
export function findAlternatives(text: string, memoryWords: ReadonlySet<string>): AlternativeMention[] {
  const found: AlternativeMention[] = [];
  for (const m of text.matchAll(COMPILED.pattern)) {
    const member = MEMBER_BY_ALIAS.get(m[0].toLowerCase().replace(/[\s-]+/g, " ")) ?? MEMBER_BY_ALIAS.get(m[0].toLowerCase());
    if (!member || m.index === undefined) continue;
    if (member.needsCue && !member.slots.some((name) => hasCue(name, memoryWords))) continue;
    found.push({ value: member.value, slots: member.slots, start: m.index, end: m.index + m[0].length });
  }
  return found;
}

/** Every alias of every member of a slot: what a memory naming one of them may be contradicted by. */
export function slotAliases(slot: string): string[] {
  return COMPILED.members.filter((m) => m.slots.includes(slot)).flatMap((m) => m.aliases);
}

function hasCue(slot: string, words: ReadonlySet<string>): boolean {
  return [...(COMPILED.slots.get(slot)?.cues ?? [])].some((cue) => words.has(cue));
}

/**
 * The slots a mention fills in its sentence: those whose cue words the sentence holds, or all
 * of its slots when it names none of them (or fills only one).
 */
export function activeSlots(mention: AlternativeMention, sentenceWords: ReadonlySet<string>): string[] {
  if (mention.slots.length === 1) return [...mention.slots];
  const cued = mention.slots.filter((name) => hasCue(name, sentenceWords));
  return cued.length > 0 ? cued : [...mention.slots];
}
