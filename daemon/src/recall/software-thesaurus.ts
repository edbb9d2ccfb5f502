/**
 * Words developers use for the same thing, as data: a query that says "sign in" should also
 * find the memory that says "login", one that asks about the "db" the one about the "database".
 * Each line is a group. "a, b, c" are synonyms: any of them expands to the others. "a > x, y"
 * is narrower terms: a query that names `a` also looks for x and y (asking about "the database"
 * finds "Postgres"), but not the other way round, since a memory about Postgres answers a
 * question about databases while one about MySQL does not answer a question about Postgres.
 * Members may be several words ("sign in"); matching is on the search's own stemmed tokens,
 * so "deploys" and "deploying" match "deploy".
 *
 * Kept general on purpose: this is the vocabulary of software work, not of any one project,
 * and an entry earns its place by being a synonym a developer would accept out of context.
 */
export const SOFTWARE_THESAURUS = `
login, log in, sign in, signin, logon, authenticate, authentication, auth
logout, log out, sign out, signout
signup, sign up, register, registration, onboarding
sso, single sign-on
auth > oauth, oidc, openid, saml, jwt, sso, session, clerk, auth0, okta, cognito, keycloak, firebase auth
mfa, 2fa, two-factor, totp, otp
authorization, permissions, access control, rbac, acl, roles
credentials > password, token, api key, secret, keychain, keyring, certificate
secret, credential
secrets manager > vault, aws secrets manager, parameter store, ssm, doppler, 1password
token, access token, bearer token
refresh token, token refresh
password, passphrase
api key, access key
session, cookie
deploy, deployment, release, ship, rollout, roll out, go live
rollback, roll back, revert, undo deploy
hotfix, patch release
canary, blue-green, staged rollout, gradual rollout
ci, continuous integration, build pipeline, ci pipeline
ci > github actions, gitlab ci, circleci, jenkins, buildkite
cd, continuous delivery, continuous deployment, gitops
build, compile, bundle
artifact, build output
db, database, datastore, data store
database > postgres, postgresql, mysql, mariadb, sqlite, rds, aurora, mongodb, dynamodb, redis, snowflake, bigquery, clickhouse, cassandra
postgres, postgresql, psql
sql, query
orm > prisma, drizzle, typeorm, sequelize, sqlalchemy, gorm, activerecord
migration, schema migration, schema change, migrate
backup, snapshot, restore, point in time recovery, pitr, dump
replica, replication, read replica, standby, failover
connection pool, pooling, pgbouncer, pool size
transaction, tx
deadlock, lock contention, lock wait
index, database index
cache, caching, memoize, memoization
cache > redis, memcached, cdn
invalidate, invalidation, purge, bust
queue, message queue, job queue, broker
queue > sqs, kafka, rabbitmq, pubsub, nats, sidekiq, celery, bullmq
worker, background job, consumer, job runner
cron, cronjob, scheduled job, scheduler, periodic job
webhook, callback, event notification
retry, retries, backoff, redelivery
idempotent, idempotency, dedupe, deduplicate, exactly once
race condition, race, concurrency bug
timeout, timed out, deadline exceeded
crash, segfault, panic, core dump
bug, defect, regression
workaround, mitigation
error, exception, failure
stack trace, traceback, backtrace
flaky, intermittent, nondeterministic, flake
test, spec, unit test
e2e, end to end, end-to-end, integration test, acceptance test
mock, stub, fake, test double
fixture, test data, seed data
coverage, code coverage
lint, linter, static analysis
formatter, code formatter, prettier, black, gofmt
typecheck, type check, type checking, tsc, mypy
dependency, package, library
dependencies > npm, pnpm, yarn, pip, poetry, uv, cargo, go modules
install, add dependency
upgrade, bump, update version
lockfile, lock file, package-lock, yarn.lock, pnpm-lock
monorepo, workspace, workspaces
container, docker, image, dockerfile
kubernetes, k8s, kube
pod, container instance
namespace, k8s namespace
helm, helm chart
terraform, opentofu, iac, infrastructure as code
cloud > aws, gcp, azure
aws, amazon web services
gcp, google cloud
s3, object storage, bucket, blob storage
cdn, cloudfront, fastly, edge cache
dns, domain, hostname, route53
tls, ssl, https, certificate, cert
load balancer, alb, elb, nlb
vpc, subnet, cidr
firewall, waf, security group, allowlist
rate limit, rate limiting, throttle, throttling, quota
latency, response time, slowness
performance, perf, speed
memory leak, oom, out of memory
cpu, processor, cpu usage
cost, bill, billing, spend, charges
monitoring, observability, telemetry, metrics
logging, logs, log lines
tracing, traces, spans, opentelemetry, otel
alert, alerting, paging, pager, on-call, oncall, pagerduty
incident, outage, downtime, postmortem
dashboard, grafana, admin panel
analytics, product analytics, tracking
analytics > segment, posthog, amplitude, mixpanel, google analytics
feature flag, feature toggle, launchdarkly
config, configuration, settings
env vars, environment variables, dotenv, .env
staging, stage, preprod, pre-production
prod, production
dev environment, development environment
repo, repository, codebase
branch, feature branch
commit, changeset
pr, pull request, merge request, code review
merge, rebase, squash
conflict, merge conflict
frontend, front end, client side, ui
backend, back end, server side, api server
api, endpoint, route
rest, rest api, http api
graphql, gql
grpc, protobuf, rpc
sdk, client library
cli, command line, terminal
mobile > ios, android, react native, expo, flutter, swift, kotlin
ios, iphone, ipad
play store, google play
app store review, app review
push notification, push notifications, apns, fcm
offline, offline mode
sync, synchronize, synchronization
pagination, paging, cursor
upload, file upload
email, mail, smtp
sms, text message
payment, payments, checkout, payment processor
payment processor > stripe, adyen, braintree, paypal
refund, refunds, chargeback
currency, money
invoice, receipt
pii, personal data, personal information
encrypt, encryption, hash, hashing, masking, redact, redaction, anonymize, pseudonymize
gdpr, privacy, data protection
compliance, pci, soc2, hipaa, audit
vulnerability, cve, security issue, exploit
owner, maintainer, point of contact
team, squad
docs, documentation, readme, wiki, runbook
runbook, playbook, procedure
style guide, coding style, conventions, house style
naming convention, naming
refactor, refactoring, cleanup, clean up
deprecate, deprecated, sunset
load test, benchmark, stress test
timezone, time zone, tz, utc
date, timestamp, datetime
i18n, internationalization, l10n, localization
accessibility, a11y, screen reader
css, stylesheet
component, widget
state management > redux, zustand, mobx, recoil
dark mode, theme
search engine, full-text search, elasticsearch, opensearch, meilisearch
llm, language model, gpt, claude
embedding, embeddings, vector
warehouse, data warehouse
etl, elt, data pipeline
etl > dbt, airflow, dagster, fivetran
notebook, jupyter
`
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "");
