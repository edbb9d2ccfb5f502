/**
 * Passwords typed on command lines, in the forms a hostile-input probe found surviving, and the
 * look-alikes that must stay (`mysql -p` that prompts, `ssh -p 22`, `docker run -p 8080:80`).
 * Part of the secret corpus (secret-corpus.ts spreads them into SECRET_SAMPLES and
 * NON_SECRET_SAMPLES), so they run through every path the corpus runs through. All values are
 * invented.
 */
import type { NonSecretSample, SecretSample } from "./secret-corpus.js";

const cli = (name: string, text: string, value: string): SecretSample => ({
  name,
  text,
  secrets: [{ type: "command-line-credential", value }],
});
const assigned = (name: string, text: string, value: string): SecretSample => ({
  name,
  text,
  secrets: [{ type: "password-assignment", value }],
});

export const COMMAND_LINE_SECRET_SAMPLES: readonly SecretSample[] = [
  cli("a MySQL password glued to -p", "mysql -h db.internal -u root -pTq7vR2xLm9 acme < schema.sql", "Tq7vR2xLm9"),
  cli("a mysqldump password glued to -p, user glued to -u", "mysqldump -uroot -pWd4kP8zNq1 --single-transaction acme > acme.sql", "Wd4kP8zNq1"),
  assigned("a MySQL password in --password=", "mysql --user=app --password=Hx3mQ9vTz2 -e 'select 1'", "Hx3mQ9vTz2"),
  {
    name: "the old and the new password of mysqladmin",
    text: "mysqladmin -u root -pOd3vK8tWq1 password Nw5rT8kQz3",
    secrets: [
      { type: "command-line-credential", value: "Od3vK8tWq1" },
      { type: "command-line-credential", value: "Nw5rT8kQz3" },
    ],
  },
  cli("curl basic auth with -u user:password", "curl -u admin:Kp9wX2mVr7 https://api.acme.dev/v1/users", "Kp9wX2mVr7"),
  cli("curl basic auth with --user=", "curl -sS --user=deploy:Bz6nL4qTw8 -X POST https://ci.acme.dev/job/build", "Bz6nL4qTw8"),
  cli("curl proxy credentials with -U", "curl -U proxyuser:Rm2vK7xPq5 -x http://proxy.acme.dev:3128 https://example.org", "Rm2vK7xPq5"),
  assigned("PGPASSWORD before psql", "PGPASSWORD=Gv8tN3wLk6 psql -h db.internal -U acme_app acme", "Gv8tN3wLk6"),
  assigned("PGPASSWORD exported", "export PGPASSWORD=Jc5qW9zRm2\npsql -h db.internal acme", "Jc5qW9zRm2"),
  assigned("SSHPASS in the environment", "SSHPASS=Fy7kT2vNx4 sshpass -e ssh deploy@web1", "Fy7kT2vNx4"),
  assigned("REDISCLI_AUTH in the environment", "REDISCLI_AUTH=Lq3wZ8mPv6 redis-cli -h cache.internal ping", "Lq3wZ8mPv6"),
  assigned("a password variable exported", "export FOO_PASSWORD=Zt4nR7qWk9 && ./deploy.sh", "Zt4nR7qWk9"),
  cli("sshpass -p", "sshpass -p Vn6xK3tQm8 ssh -o StrictHostKeyChecking=no deploy@web1 'sudo systemctl restart api'", "Vn6xK3tQm8"),
  cli("docker login -p", "docker login -u maya -p Pq2mV9wTx5 registry.acme.dev", "Pq2mV9wTx5"),
  assigned("docker login --password", "docker login registry.acme.dev --username maya --password Yk8tL3nRw2", "Yk8tL3nRw2"),
  cli("podman login -p", "podman login quay.io -u acme+ci -p Xw5qN2vKt7", "Xw5qN2vKt7"),
  cli("skopeo --creds user:password", "skopeo copy --creds maya:Mt7wQ4zLp9 docker://registry.acme.dev/api:1.4 dir:/tmp/api", "Mt7wQ4zLp9"),
  cli("redis-cli -a", "redis-cli -h cache.internal -p 6380 -a Cw9vT2kNq4 --no-auth-warning info", "Cw9vT2kNq4"),
  cli("htpasswd -b with the password last", "htpasswd -b -B /etc/nginx/.htpasswd admin Hq4zW7mTv2", "Hq4zW7mTv2"),
  cli("htpasswd -nb in a flag cluster", "htpasswd -nbB admin Sv3kP8wQz5 > users.htpasswd", "Sv3kP8wQz5"),
  cli("mongo -p", "mongo -u admin -p Dn8qV3tKw6 --authenticationDatabase admin mongodb.internal/acme", "Dn8qV3tKw6"),
  cli("mongosh -p", "mongosh --host mongodb.internal -u admin -p Kx2wR7vNq4", "Kx2wR7vNq4"),
  {
    name: "a password in a psql connection URL",
    text: 'psql "postgresql://acme_app:Ur5tM2kWq8@db.internal:5432/acme?sslmode=require" -c "\\dt"',
    secrets: [{ type: "url-password", value: "Ur5tM2kWq8" }],
  },
  {
    name: "a token in a git clone URL",
    text: "git clone https://maya:Qe7vK4tNw9xLm2Zp@git.acme.dev/acme/api.git",
    secrets: [{ type: "url-password", value: "Qe7vK4tNw9xLm2Zp" }],
  },
  assigned("wget --password=", "wget --user=maya --password=Nk6wT3qVz8 https://files.acme.dev/dumps/acme.tgz", "Nk6wT3qVz8"),
  cli("smbclient -U user%password", "smbclient //nas.internal/backups -U maya%Wz3qK8tVm5 -c 'ls'", "Wz3qK8tVm5"),
  cli("openssl -passin pass:", "openssl rsa -in server.key -passin pass:Tk9mW4vQz2 -out server.plain.key", "Tk9mW4vQz2"),
  cli("openssl -passout pass:", "openssl pkcs12 -export -in cert.pem -inkey key.pem -out cert.p12 -passout pass:Vq5zN8wKt3", "Vq5zN8wKt3"),
  cli("az login -p", "az login --service-principal -u 8213-acme-ci -p Zm4tQ9vWk7 --tenant acme.onmicrosoft.com", "Zm4tQ9vWk7"),
  cli("ldapsearch -w", "ldapsearch -x -H ldap://ldap.internal -D cn=admin,dc=acme,dc=dev -w Lk7vN2qTz9 -b dc=acme,dc=dev", "Lk7vN2qTz9"),
  cli("7z -p", "7z a -pRw8qM3tVk5 -mhe=on backup.7z ./secrets/", "Rw8qM3tVk5"),
  cli("zip -P", "zip -P Gt2wK9vQm6 -r handover.zip docs/", "Gt2wK9vQm6"),
  cli("sqlcmd -P", "sqlcmd -S tcp:acme.database.windows.net -U sa -P Bq6vT3kWz8 -Q 'SELECT @@VERSION'", "Bq6vT3kWz8"),
  cli("lftp -u user,password", "lftp -u maya,Hn4zQ7wTv2 sftp://files.acme.dev", "Hn4zQ7wTv2"),
  cli("ssh-keygen -N", "ssh-keygen -t ed25519 -C deploy@acme -N Qv9kW2tZm4 -f ~/.ssh/deploy", "Qv9kW2tZm4"),
  cli("keytool -storepass", "keytool -importcert -alias acme -file ca.pem -keystore truststore.jks -storepass Mz8wV3qKt6 -noprompt", "Mz8wV3qKt6"),
  cli("xfreerdp /p:", "xfreerdp /v:win01.internal /u:maya /p:Wt5kQ8vNz3 /cert:ignore", "Wt5kQ8vNz3"),
  cli("rabbitmqctl add_user", "rabbitmqctl add_user ci-worker Kv2tZ9wQm7", "Kv2tZ9wQm7"),
  cli("sqlplus user/password@db", "sqlplus scott/Tg7wN4kQv2@db.internal:1521/ORCL @migrate.sql", "Tg7wN4kQv2"),
  cli("vault login with a token argument", "vault login Zq8vM3tWk5nL2xRp", "Zq8vM3tWk5nL2xRp"),
  assigned("plink -pw", "plink -ssh -pw Nv6qT2wKz9 maya@web1.internal uptime", "Nv6qT2wKz9"),
  cli(
    "a failed curl in the PostToolUseFailure trace",
    "Command failed: curl -fsS -u admin:Xp4wK8tVm2 https://grafana.acme.dev/api/health\nExit code 22\ncurl: (22) The requested URL returned error: 401",
    "Xp4wK8tVm2",
  ),
  cli(
    "a mysql command inside a JSON transcript line",
    '{"type":"tool_use","name":"Bash","input":{"command":"mysql -h 127.0.0.1 -uroot -pQm7vT4kWz8 acme -e \\"show tables\\"","description":"List tables"}}',
    "Qm7vT4kWz8",
  ),
  assigned("a wifi password stated in prose", "The office wifi password is Wv9kT3qZm6, the guest one is on the fridge.", "Wv9kT3qZm6"),
  assigned("my password: in prose", "my password: Pk5wN8tQv3 (please change it after the demo)", "Pk5wN8tQv3"),
  assigned("pw is in a chat message", "ssh to the staging box, pw is Tz2qV7kWm4 for now", "Tz2qV7kWm4"),
];

export const COMMAND_LINE_NON_SECRET_SAMPLES: readonly NonSecretSample[] = [
  { name: "mysql -p that prompts for the password", text: "mysql -h db.internal -u root -p acme" },
  { name: "curl -u with only a user name", text: "curl -u admin https://api.acme.dev/health (curl prompts for the password)" },
  { name: "curl credentials from variables", text: 'curl -u "$API_USER:$API_PASSWORD" https://api.acme.dev' },
  { name: "flags named like password options", text: "ls -a ~/.ssh && grep -p pattern notes.txt && cargo build -p memd-core && pnpm -r test" },
  { name: "docker login without a password", text: "docker login ghcr.io -u maya" },
  { name: "prose about passwords", text: "We need a password reset flow: the password is required, is SHA-256 hashed and must be 12 characters." },
  { name: "port flags", text: "ssh -p 22 deploy@web1 && docker run -p 8080:80 nginx && psql -p 5433 acme && redis-cli -p 6380 ping" },
  { name: "mongosh -p before another flag", text: "mongosh -u admin -p --authenticationDatabase admin" },
  { name: "openssl passwords read from the environment and a file", text: "openssl rsa -in key.pem -passin env:KEY_PASS -passout file:pw.txt" },
  { name: "ssh-keygen with an empty passphrase", text: "ssh-keygen -t ed25519 -N '' -f ~/.ssh/ci" },
  { name: "htpasswd that prompts", text: "htpasswd -c /etc/nginx/.htpasswd admin" },
  { name: "askpass helpers and a password file", text: "SSH_ASKPASS=/usr/bin/ksshaskpass PGPASSFILE=~/.pgpass sshpass -f ~/.sshpass ssh web1" },
  { name: "a password variable in a glued mysql flag", text: 'mysql -p"$MYSQL_PWD" acme && docker login -p $REGISTRY_PASSWORD registry.acme.dev' },
  { name: "vault login with a method", text: "vault login -method=oidc && az login --use-device-code && sqlplus / as sysdba" },
  { name: "rabbitmqctl add_user that prompts", text: "rabbitmqctl add_user ci-worker" },
];
