/**
 * Hand-written word lists for the synthetic corpus. They are raw material only: the
 * generator in vocabulary.ts combines them into the few thousand terms memories are made of.
 */

const words = (text: string): readonly string[] => text.trim().split(/\s+/);

/** Content words of engineering notes, roughly most common first. */
export const CONTENT_WORDS = words(`
  test build error config server client request response database query cache user file
  function service api data value type module package version update deploy release branch
  commit merge review issue bug fix change code script command output input log logs event
  message handler route router endpoint token auth session cookie header payload schema table
  index column row migration transaction lock timeout retry connection socket port host network
  proxy gateway queue worker job task scheduler cron batch stream buffer chunk memory heap stack
  thread process signal container image docker kubernetes cluster node pod volume secret env
  variable flag option setting default limit threshold metric counter gauge histogram alert
  dashboard trace span latency throughput performance benchmark profile regression failure crash
  panic exception warning debug info level format parser lexer compiler bundle dependency
  lockfile registry mirror artifact pipeline workflow runner job step stage environment staging
  production local remote origin upstream fork tag label milestone ticket sprint backlog estimate
  design decision tradeoff constraint requirement spec contract interface implementation class
  method property field struct enum union generic trait macro closure callback promise async await
  future channel mutex semaphore race deadlock leak allocation pointer reference borrow lifetime
  ownership copy clone serialize deserialize encode decode encrypt decrypt hash signature
  certificate key rotation expiry refresh invalidate evict warm cold hot path slow fast hang
  flaky intermittent reproducible deterministic random seed fixture mock stub spy snapshot
  coverage lint formatter prettier eslint typecheck compile transpile minify sourcemap bundle
  frontend backend fullstack browser mobile desktop terminal shell editor plugin extension hook
  middleware interceptor filter validator sanitizer escape injection xss csrf cors origin policy
  permission role scope tenant account billing invoice payment charge refund subscription plan
  customer order cart checkout shipping inventory product catalog search ranking relevance
  embedding vector similarity cluster shard replica leader follower election consensus quorum
  partition offset consumer producer topic broker backpressure throttle rate quota budget cost
  storage bucket object blob upload download archive backup restore snapshot recovery failover
  outage incident postmortem oncall pager runbook playbook escalation severity priority owner
  team reviewer approver maintainer contributor onboarding documentation readme changelog guide
  tutorial example sample template boilerplate scaffold generator codegen protobuf grpc rest
  graphql websocket http http2 tls dns ip ipv6 loopback localhost address resolver lookup
  certificate handshake keepalive idle pool pooling reuse leak drain shutdown graceful restart
  reload hotfix patch rollback rollforward canary bluegreen feature toggle experiment cohort
  analytics telemetry sampling aggregation rollup window bucket percentile median average spike
  dip trend baseline anomaly outlier noise signal regression improvement optimization refactor
  rename extract inline split merge simplify cleanup deprecate remove delete archive prune vacuum
  compact reindex analyze explain plan scan seek join subquery view trigger procedure constraint
  foreign primary unique nullable default sequence autoincrement uuid ulid timestamp timezone
  utc date time duration interval calendar locale translation unicode emoji whitespace newline
  encoding utf8 ascii base64 json yaml toml csv xml markdown html css sass tailwind layout
  component render hydrate state store reducer action selector props context provider effect
  memo ref portal modal dialog form button input dropdown tooltip toast spinner skeleton pagination
  infinite scroll virtual list grid table chart graph tree node edge cycle path walk traverse
  sort filter map reduce fold zip flatten group partition dedupe normalize denormalize
  validate coerce parse stringify truncate pad trim slugify capitalize pluralize escape quote
  retry backoff jitter circuit breaker bulkhead fallback degrade healthcheck readiness liveness
  probe sidecar mesh ingress egress loadbalancer nginx envoy haproxy redis postgres mysql sqlite
  mongodb kafka rabbitmq nats elasticsearch opensearch clickhouse bigquery snowflake s3 gcs azure
  aws gcp terraform ansible helm kustomize argo jenkins github gitlab bitbucket circleci actions
  vercel netlify cloudflare fastly akamai sentry datadog grafana prometheus loki tempo jaeger
  opentelemetry honeycomb pagerduty slack jira linear notion confluence figma storybook
  typescript javascript python golang rust java kotlin swift ruby elixir haskell scala clojure
  node deno bun npm pnpm yarn pip poetry cargo maven gradle bazel make cmake ninja webpack vite
  esbuild rollup babel swc jest vitest mocha pytest junit playwright cypress selenium puppeteer
  windows linux macos ubuntu debian alpine arm64 x86 wasm gpu cpu disk ssd iops fsync wal journal
  checkpoint durability consistency isolation serializable snapshot optimistic pessimistic
  idempotent idempotency retries duplicate exactly once ordering causal eventual strong weak
  monorepo workspace submodule vendor patchfile postinstall preinstall engines peer optional
  breaking semver major minor prerelease nightly stable lts eol upgrade downgrade pin unpin bump
  slow query n+1 eager lazy loading prefetch preload cache-control etag stale revalidate ttl
  user-facing internal external public private admin superuser guest anonymous verified banned
  signup login logout password reset mfa totp sso saml oidc oauth jwt refresh-token scope claim
  email sms push notification webhook callback subscriber publisher fanout digest unsubscribe
  bounce spam complaint deliverability template localization currency tax vat discount coupon
  fraud chargeback dispute settlement payout ledger balance reconciliation audit compliance gdpr
  pii redaction retention deletion export import consent cookie banner tracking privacy
  accessibility aria contrast keyboard focus screenreader responsive breakpoint viewport dark
  theme color font icon svg png jpeg webp avif thumbnail resize crop compress upload cdn
  careful tricky surprising annoying confusing obvious subtle important critical minor major
  always never sometimes usually rarely often before after during instead because unless until
`);

/** Verbs for identifiers and instructions. */
export const VERBS = words(`
  get set load save fetch send parse build create update delete remove add insert find search
  list read write open close start stop run handle process validate check ensure resolve reject
  retry flush sync init reset clear compute render format encode decode merge split apply
  register emit dispatch subscribe schedule cancel refresh rotate migrate seed normalize
`);

/** Nouns for identifiers, file names and directories. */
export const NOUNS = words(`
  user account session token config client server request response cache queue job worker
  payment invoice order cart item product price customer tenant project memory record entry
  event message handler route schema table index query result error logger metric span trace
  file path buffer stream socket connection pool lock timer retry backoff limit quota policy
  role permission webhook notification email template report export import backup snapshot
  migration version release build artifact bundle plugin hook adapter store repo service
`);

/** Top-level source folders. */
export const DIRS = words(`
  src lib app server client api core internal pkg cmd services components hooks utils db
  migrations scripts test tests e2e packages web worker jobs config infra deploy docs
`);

/** File extensions, most common first. */
export const EXTENSIONS = words(`ts tsx js go py rs sql yaml json md sh toml proto css`);

/** Real error identifiers that agents meet and search for verbatim. */
export const ERROR_CODES = words(`
  ECONNRESET ECONNREFUSED ETIMEDOUT ENOENT EADDRINUSE EACCES EPERM EPIPE EMFILE ENOTFOUND
  EAI_AGAIN EEXIST ENOSPC EISDIR ENOTDIR ERR_MODULE_NOT_FOUND ERR_REQUIRE_ESM ERR_INVALID_ARG_TYPE
  ERR_HTTP2_STREAM_ERROR ERR_SSL_WRONG_VERSION_NUMBER SQLITE_BUSY SQLITE_LOCKED SQLITE_CONSTRAINT
  SQLITE_CORRUPT SIGSEGV SIGKILL SIGTERM OOMKilled CrashLoopBackOff ImagePullBackOff
  TS2322 TS2345 TS2532 TS7006 TS18048 E11000 ER_DUP_ENTRY 23505 40001 53300 57014
  HTTP_429 HTTP_502 HTTP_503 HTTP_504 DEADLINE_EXCEEDED UNAVAILABLE RESOURCE_EXHAUSTED
`);

/** Issue tracker prefixes for PAY-1423 style tickets. */
export const TICKET_PREFIXES = words(`PAY AUTH INFRA WEB API CORE OPS BILL SRCH DATA`);

/** Environment variables and config keys. */
export const ENV_VARS = words(`
  DATABASE_URL REDIS_URL NODE_ENV LOG_LEVEL PORT HOST API_KEY STRIPE_SECRET_KEY JWT_SECRET
  SENTRY_DSN AWS_REGION AWS_PROFILE S3_BUCKET KAFKA_BROKERS OTEL_EXPORTER_OTLP_ENDPOINT
  NODE_OPTIONS PGPOOL_MAX HTTP_PROXY NO_PROXY CI GITHUB_TOKEN FEATURE_FLAGS_URL MEMD_HOME
`);

/** Project names; "global" holds the user-wide memories. */
export const PROJECTS = words(`payments-api web-dashboard infra auth-service search-indexer mobile-app data-pipeline docs-site`);

/** Words that glue content words into sentences; stopwords, so search mostly skips them. */
export const FUNCTION_WORDS = words(`the a an and or of to in on for with by from is are was it this that when`);

/** Labels agents attach to memories. */
export const TAGS = words(`bug perf security flaky ci prod dx oncall tech-debt gotcha howto decision followup`);
