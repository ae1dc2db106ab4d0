"""A corpus of FAKE credentials in realistic shapes and contexts, and of near-misses.

Every value is generated from a fixed seed (so no scanner mistakes this file for a leak,
and no value is a real one). ``SECRETS`` holds (family, text, values that must not
survive); ``NEAR_MISSES`` holds text that must come out of ``redact`` unchanged.
"""

from __future__ import annotations

import random
import string

_RNG = random.Random(20261126)  # noqa: S311 - fake values, reproducible on purpose
_ALNUM = string.ascii_letters + string.digits
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"


def r(n: int, alphabet: str = _ALNUM) -> str:
    """A random string that has a digit, an upper and a lower case letter when it can."""
    while True:
        value = "".join(_RNG.choice(alphabet) for _ in range(n))
        if (
            alphabet != _ALNUM
            or n < 8
            or (
                any(c.isdigit() for c in value)
                and any(c.isupper() for c in value)
                and any(c.islower() for c in value)
            )
        ):
            return value


def pw(n: int = 14) -> str:
    """A password with punctuation."""
    return r(n - 4) + _RNG.choice("!#%^*") + r(2) + "@" + _RNG.choice("?~+")


Case = tuple[str, str, tuple[str, ...]]
SECRETS: list[Case] = []


def add(family: str, text: str, *values: str) -> None:
    SECRETS.append((family, text, values))


# AWS
for _ in range(3):
    key, sec = "AKIA" + r(16, string.ascii_uppercase + string.digits), r(40, _B64)
    add(
        "aws",
        f"aws configure set aws_access_key_id {key}\naws configure set aws_secret_access_key {sec}",
        key,
        sec,
    )
    add(
        "aws",
        f"User name,Password,Access key ID,Secret access key,Console login link\n"
        f"deploy,{pw()},{key},{sec},https://1234.signin.aws.amazon.com/console",
        key,
        sec,
    )
    add("aws", f"Access key ID,Secret access key\n{key},{sec}\n", key, sec)
    add("aws", f"export AWS_SECRET_ACCESS_KEY={sec}", sec)
tok = r(300, _B64)
add("aws", f"aws configure set aws_session_token {tok} --profile ci", tok[:40])
sec = r(40, _B64)
add("aws", f"AWS Secret Access Key [None]: {sec}", sec)
add("aws", f"[default]\naws_secret_access_key = {sec}\nregion = eu-west-1", sec)
asia = "ASIA" + r(16, string.ascii_uppercase + string.digits)
add("aws", f'{{"AccessKeyId": "{asia}", "SecretAccessKey": "{sec}"}}', asia, sec)

# GCP
for _ in range(3):
    ya = "ya29." + r(120, _URLSAFE)
    add(
        "gcp", f'curl -H "Authorization: Bearer {ya}" https://www.googleapis.com/drive/v3', ya[5:45]
    )
    add("gcp", f"access token: {ya}", ya[5:45])
    cs = "GOCSPX-" + r(28, _URLSAFE)
    add("gcp", f'"client_secret":"{cs}","redirect_uris":["http://localhost"]', cs)
    add("gcp", f"the OAuth client secret is {cs}", cs)
pk = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + r(200, _B64)
add(
    "gcp",
    '{\n  "type": "service_account",\n  "private_key_id": "' + r(40, _HEX) + '",\n'
    '  "private_key": "-----BEGIN PRIVATE KEY-----\\n'
    + pk[:64]
    + "\\n"
    + pk[64:]
    + '\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "ci@proj.iam.gserviceaccount.com"\n}',
    pk[:64],
    pk[64:120],
)
refresh = "1//0" + r(100, _URLSAFE)
add("gcp", f"refresh_token={refresh}", refresh)
aiza = "AIza" + r(35, _URLSAFE)
add("gcp", f"https://maps.googleapis.com/maps/api/geocode/json?address=x&key={aiza}", aiza)

# Azure
for _ in range(3):
    ak = r(86, _B64) + "=="
    add(
        "azure",
        f"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={ak};"
        "EndpointSuffix=core.windows.net",
        ak[:40],
    )
    sig = r(43, _B64).replace("+", "%2B").replace("/", "%2F") + "%3D"
    add(
        "azure",
        f"https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r"
        f"&se=2026-12-01T00:00:00Z&st=2026-01-01&spr=https&sig={sig}",
        sig[:30],
    )
    sak = r(43, _B64) + "="
    add(
        "azure",
        f"Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;"
        f"SharedAccessKey={sak}",
        sak[:30],
    )
csec = r(8) + "~" + r(31, _URLSAFE)
add("azure", f"az login --service-principal -u app-id -p {csec} --tenant t", csec)
add("azure", f"AZURE_CLIENT_SECRET='{csec}'", csec)

ak = r(86, _B64) + "=="
add("azure", f'[{{"keyName": "key1", "permissions": "FULL", "value": "{ak}"}}]', ak[:40])
p = pw()
add("azure", f'<add key="StoragePassword" value="{p}" />', p)

# Slack
for kind in ("xoxb", "xoxp", "xoxa", "xoxr", "xoxs", "xoxo"):
    token = f"{kind}-{r(11, string.digits)}-{r(12, string.digits)}-{r(24)}"
    add("slack", f"SLACK_TOKEN={token}" if kind in "xoxb xoxp" else f"token {token} revoked", token)
xoxe = "xoxe.xoxp-1-" + r(140)
add("slack", f"refresh with {xoxe}", xoxe[12:60])
xoxe2 = "xoxe-1-" + r(140)
add("slack", f'"refresh_token": "{xoxe2}"', xoxe2)
xapp = (
    f"xapp-1-A{r(10, string.ascii_uppercase + string.digits)}-{r(13, string.digits)}-{r(64, _HEX)}"
)
add("slack", f"socket mode app token {xapp}", xapp)
_UP = string.ascii_uppercase
hook = f"https://hooks.slack.com/services/T{r(10, _UP)}/B{r(10, _UP)}/{r(24)}"
add("slack", f'curl -X POST -d \'{{"text":"hi"}}\' {hook}', hook[33:])

# Stripe
for prefix in ("sk_live_", "rk_live_", "sk_test_"):
    key = prefix + r(99 if prefix != "sk_test_" else 24)
    add("stripe", f"stripe.api_key = '{key}'", key)
whsec = "whsec_" + r(32)
add("stripe", f"STRIPE_WEBHOOK_SECRET={whsec}", whsec)
add(
    "stripe",
    "stripe listen --forward-to localhost:4242/webhook\n"
    f"> Ready! Your webhook signing secret is {whsec}",
    whsec,
)

# GitLab
for prefix in ("glpat-", "gldt-", "glrt-", "glptt-"):
    token = prefix + r(20, _URLSAFE)
    add(
        "gitlab",
        f'curl --header "PRIVATE-TOKEN: {token}" https://gitlab.example.com/api/v4/projects',
        token,
    )
reg = "GR1348941" + r(20, _URLSAFE)
add("gitlab", f"gitlab-runner register --url https://gitlab.com --registration-token {reg}", reg)
gl = "glpat-" + r(20, _URLSAFE)
add("gitlab", f"git clone https://oauth2:{gl}@gitlab.com/group/repo.git", gl)

# GitHub
for prefix in ("ghp_", "gho_", "ghs_", "ghu_", "ghr_"):
    token = prefix + r(36)
    add("github", f"gh auth login --with-token <<< {token}", token)
fine = "github_pat_" + r(22) + "_" + r(59)
add("github", f"GITHUB_TOKEN_RO={fine}", fine)
ghp = "ghp_" + r(36)
add("github", f"remote: https://x-access-token:{ghp}@github.com/o/r.git", ghp)
old = r(40, _HEX)
add("github", f"git clone https://{old}@github.com/o/private.git", old)

# npm / PyPI / Hugging Face
for _ in range(2):
    npm = "npm_" + r(36)
    add("npm", f"//registry.npmjs.org/:_authToken={npm}", npm)
    add("npm", f"NPM_TOKEN={npm} npm publish", npm)
    pypi = "pypi-AgEIcHlwaS5vcmc" + r(120, _URLSAFE)
    add("pypi", f"twine upload -u __token__ -p {pypi} dist/*", pypi[:60])
    add("pypi", f"[pypi]\n  username = __token__\n  password = {pypi}\n", pypi[:60])
    hf = "hf_" + r(34)
    add("huggingface", f"huggingface-cli login --token {hf}", hf)
    add("huggingface", f"HF_TOKEN={hf} python train.py", hf)

# Vault
for _ in range(2):
    hvs = "hvs." + r(24) + r(60, _URLSAFE)
    add("vault", f"export VAULT_TOKEN={hvs}", hvs)
    add("vault", f"vault login {hvs}", hvs)
    legacy = "s." + r(24)
    add("vault", f"vault login {legacy}", legacy)
    add("vault", f'curl -H "X-Vault-Token: {legacy}" https://vault:8200/v1/secret/data/x', legacy)

# SendGrid, Twilio, OpenAI, Anthropic
for _ in range(2):
    sg = "SG." + r(22, _URLSAFE) + "." + r(43, _URLSAFE)
    add("sendgrid", f"sg = SendGridAPIClient('{sg}')", sg)
    sk = "SK" + r(32, _HEX)
    add("twilio", f"client = Client('{sk}', api_secret)", sk)
    auth = r(32, _HEX)
    add("twilio", f"TWILIO_AUTH_TOKEN={auth}", auth)
    add(
        "twilio",
        f"curl -u AC{r(32, _HEX)}:{auth} https://api.twilio.com/2010-04-01/Accounts.json",
        auth,
    )
    oa = "sk-proj-" + r(156, _URLSAFE)
    add("openai", f"OPENAI_API_KEY={oa}", oa[:50])
    add("openai", f'openai.api_key = "{oa}"', oa[:50])
    svc = "sk-svcacct-" + r(100, _URLSAFE)
    add("openai", f"using {svc} for the batch", svc[:50])
    ant = "sk-ant-api03-" + r(93, _URLSAFE) + "AA"
    add("anthropic", f'curl https://api.anthropic.com/v1/messages -H "x-api-key: {ant}"', ant[:50])
    add("anthropic", f'client = anthropic.Anthropic(api_key="{ant}")', ant[:50])

# JWT and private keys
for _ in range(3):
    jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + r(60, _URLSAFE) + "." + r(43, _URLSAFE)
    add("jwt", f"id_token: {jwt}", jwt[37:80])
    add("jwt", f"session cookie looks like {jwt}", jwt[37:80])
for label in (
    "RSA PRIVATE KEY",
    "OPENSSH PRIVATE KEY",
    "EC PRIVATE KEY",
    "PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "PGP PRIVATE KEY BLOCK",
):
    body = "\n".join(r(64, _B64) for _ in range(4))
    add(
        "private-key",
        f"$ cat key\n-----BEGIN {label}-----\n{body}\n-----END {label}-----\n",
        body[:64],
        body[130:190],
    )

# .netrc, docker, sshpass
for _ in range(2):
    p = pw()
    add("netrc", f"machine api.heroku.com\n  login me@example.com\n  password {p}\n", p)
    p = pw()
    add("netrc", f"machine github.com login octocat password {p}", p)
    p = pw()
    add("docker", f"docker login -u deploy -p {p} registry.example.com", p)
    p = pw()
    add("docker", f"docker login --username deploy --password '{p}' ghcr.io", p)
    p = pw()
    add("docker", f"echo '{p}' | docker login --username ci --password-stdin", p)
    p = pw()
    add("sshpass", f"sshpass -p '{p}' ssh admin@10.0.0.5 uptime", p)
    p = r(12)
    add("sshpass", f"sshpass -p{p} scp f host:", p)
dckr = "dckr_pat_" + r(27, _URLSAFE)
add("docker", f"docker login -u me --password={dckr}", dckr)

# Headers
for _ in range(2):
    c = r(32, _HEX)
    add("cookie", f"Cookie: sessionid={c}; csrftoken={r(32)}", c)
    add("cookie", f"Set-Cookie: __Host-session={c}; Path=/; Secure; HttpOnly", c)
    add("cookie", f"curl -b 'session={c}' https://app.example.com/me", c)
    t = r(40, _URLSAFE)
    add("authorization", f"Authorization: Bearer {t}", t)
    b = r(24, _B64) + "=="
    add("authorization", f"-H 'Authorization: Basic {b}'", b)
    t = r(40)
    add("authorization", f'headers = {{"Authorization": "token {t}"}}', t)
    t = r(40)
    add("authorization", f"Authorization: {t}", t)

# URLs with passwords (some holding @)
for scheme in ("https", "postgres", "postgresql", "mysql", "mongodb+srv", "amqp", "ftp"):
    p = r(8) + "@" + r(6)
    add("url-password", f"{scheme}://admin:{p}@db.example.com:5432/app", p, p.split("@")[1])
p = pw()
add("connection-string", f"REDIS_URL=redis://:{p}@cache:6379/0", p)
p = pw()
add(
    "connection-string",
    f"Server=tcp:db.example.com,1433;Database=app;User ID=sa;Password={p};Encrypt=true",
    p,
)
p = pw()
add("connection-string", f"Driver={{ODBC Driver 18}};Server=db;Uid=app;Pwd={p};", p)
p = pw()
add("connection-string", f"jdbc:mysql://db:3306/app?user=app&password={p}&useSSL=true", p)

# Names that merely contain a keyword; values with punctuation and escaped quotes
for name in (
    "DB_PASSWD",
    "MY_API_KEY_2",
    "GITHUB_TOKEN_RO",
    "SMTP_PASS",
    "DB_PWD",
    "APP_SECRET",
    "SIGNING_KEY",
    "SERVICE_CREDENTIALS",
    "REDIS_AUTH",
    "PGPASSWORD",
    "SSHPASS",
    "JWT_SECRET_KEY",
    "ENCRYPTIONKEY",
    "OAUTH_CLIENT_SECRET",
):
    p = pw()
    add("env", f"{name}={p}", p)
p1, p2 = r(6), r(6)
add("env", f'DB_PASSWORD="{p1}\\"{p2}"', p1, p2)
p = r(6) + "&" + r(6)
add("env", f"DB_PASSWORD={p}", p.split("&")[1])
p = r(6) + ";" + r(5) + "|" + r(4)
add("env", f"export ADMIN_PASS='{p}'", p)
p = pw()
add("env", f'$env:API_KEY = "{p}"', p)
p = pw()
add("env", f'set -x GITHUB_TOKEN {pw()}\nsetx SECRET_TOKEN "{p}"', p)

# YAML and JSON
for key in ("password", "private_key", "client_secret", "token"):
    l1, l2 = r(30, _B64), r(30, _B64)
    add("yaml-block", f"db:\n  {key}: |\n    {l1}\n    {l2}\n  host: db.internal\n", l1, l2)
l1 = pw(20)
add("yaml-block", f"auth:\n  password: >-\n    {l1}\n", l1)
for key in ("password", "apiKey", "secret", "access_token", "refreshToken", "client_secret"):
    v = pw()
    add("json", f'{{"user": "bob", "{key}": "{v}", "remember": true}}', v)
v = pw()
add("json", f"{{'password': '{v}'}}", v)
v = pw()
add("yaml", f"spring:\n  datasource:\n    password: {v}\n", v)
v = pw()
add("yaml", f'stringData:\n  DB_PASSWORD: "{v}"\n', v)

v = pw()
add("xml", f"<datasource><user>app</user><password>{v}</password></datasource>", v)
v = pw()
add("cli", f"sqlplus scott/{v}@orcl", v)

# Command-line credentials
for _ in range(2):
    p = pw()
    add("cli", f"mysql -h db -u root -p{p} app", p)
    p = pw()
    add("cli", f"psql --password={p} -h db", p)
    p = pw()
    add("cli", f"curl -u admin:{p} https://jenkins.example.com/api/json", p)
    p = pw()
    add("cli", f"redis-cli -h cache -a {p} ping", p)
    p = pw()
    add("cli", f"mytool deploy --api-key {p} --env prod", p)
    p = pw()
    add("cli", f"keytool -importkeystore -srcstorepass {p} -deststorepass {p}", p)
    p = pw()
    add("cli", f"openssl pkcs12 -export -passout pass:{p} -out a.p12", p)
    p = pw()
    add("cli", f"kubectl create secret generic db --from-literal=password={p}", p)
    p = pw()
    add("cli", f'gh secret set DEPLOY_KEY --body "{p}"', p)
    p = pw()
    add("cli", f"wget --http-password={p} https://x.example.com/f", p)
    p = pw()
    add("cli", f"echo '{p}' | sudo -S apt-get update", p)
    p = pw()
    add("cli", f"the password is {p}", p)
    p = pw()
    add("cli", f"7z x -p{p} backup.7z", p)

# Other token formats
for token in (
    "dop_v1_" + r(64, _HEX),
    "shpat_" + r(32, _HEX),
    "lin_api_" + r(40),
    "PMAK-" + r(24, _HEX) + "-" + r(34, _HEX),
    "AGE-SECRET-KEY-1" + r(58, string.ascii_uppercase + string.digits),
    "dapi" + r(32, _HEX),
    f"{r(9, string.digits)}:AA{r(33, _URLSAFE)}",
    "sntrys_" + r(60),
    "glsa_" + r(32) + "_" + r(8, _HEX),
):
    add("other-token", f"token in the logs: {token} (rotate it)", token)


NEAR_MISSES: list[str] = [
    "def tokenize(text: str) -> list[str]:\n    return text.split()",
    "token_count = 5",
    "max_tokens=4096",
    "password_reset_url = 'https://example.com/reset'",
    "PASSWORD_RESET_URL=https://example.com/account/reset",
    "PASSWORD_MIN_LENGTH=12",
    "SESSION_TOKEN_TTL=15m",
    "KEY=value",
    "API_KEY=<your key here>",
    "API_KEY=${API_KEY:-}",
    "GITHUB_TOKEN=$GITHUB_TOKEN",
    "password = os.environ['DB_PASSWORD']",
    "SECRET_KEY = settings.SECRET_KEY",
    'token = os.getenv("HF_TOKEN")',
    "if not api_key:\n    raise ValueError('missing api key')",
    "commit 3f9c2b7d8e1a4f6b0c5d9e2a7b4c1f8e3d6a9b0c\nAuthor: Dev <dev@example.com>",
    "3f9c2b7 Fix the login form (#412)",
    "request id 123e4567-e89b-12d3-a456-426614174000 took 35 ms",
    "uuid: 590fe4d5-c63b-4dee-b3bc-bc3cc602595a",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "git push -u origin main",
    "docker run -p 8080:80 -u 1000:1000 nginx",
    "mkdir -p build/out && pytest -p no:cacheprovider",
    "ssh -p 2222 git@example.com",
    "mysql -P 3306 -u root -p app",
    "The password reset flow sends an email.",
    "Passwords must be rotated every 90 days.",
    "The secret to fast builds is caching.",
    "tokenizer: bpe",
    "secretary: Bob",
    "sort(key=lambda item: item.name)",
    "PRIMARY KEY (id)",
    "http://localhost:3000/users?email=alice@example.com",
    "ssh git@github.com",
    "postgres://localhost/invoices",
    "Authorization: Bearer $TOKEN",
    "export PATH=$HOME/.local/bin:$PATH",
    "version: 1.2.3-rc.4+build.5",
    "AKIA alone and ghp_short",
    "sk-learn-compatible-estimators",
    "hf_hub_download(repo_id='bert-base-uncased')",
    "use_auth: true",
    "--password-stdin reads it from stdin",
    "TOKENIZERS_PARALLELISM=false",
    "SSL_KEY_FILE=/etc/ssl/private/server.key",
    "Café Crème & Other Drinks",
    "NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
    "<token_count>5</token_count>",
    "integrity sha512-" + "Zm9vYmFy" * 10 + "Zm9vYg==",
    "ssh -i ~/.ssh/id_ed25519 deploy@host",
    "Both tests pass: past-due open tasks are listed, future ones are not.",
]

#: A distinctive piece of each near-miss that must survive the channels that keep it.
NEAR_MISS_MARKERS = [
    "token_count = 5",
    "password_reset_url",
    "3f9c2b7d8e1a4f6b0c5d9e2a7b4c1f8e3d6a9b0c",
    "123e4567-e89b-12d3-a456-426614174000",
]


def families() -> dict[str, int]:
    counts: dict[str, int] = {}
    for family, _, _ in SECRETS:
        counts[family] = counts.get(family, 0) + 1
    return counts
