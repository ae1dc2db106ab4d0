"""HELD-OUT: FAKE human-chosen passwords in the forms of issue 32, finding 8.

Written before any rule was changed for these forms, and never used to tune them: the rules
were tuned on tests/secret_corpus_forms.py (``TUNE``), which covers the same families with
other tools, quoting and phrasing. This set only measures (tests/benchmark/redaction_eval.py).

Every value is generated from a fixed seed (no real credential). ``HELD_OUT`` holds
(family, text, values that must not survive).
"""

from __future__ import annotations

from secret_corpus_forms import Corpus, Passwords

_WORDS = (
    "harbor falcon copper lantern meadow orbit maple cobalt willow ember quartz saffron "
    "juniper tundra marble violet canyon pepper thistle walnut"
)
_HELD = Corpus(Passwords(20261129, _WORDS, "-", "!#%^*_-", (10, 16), camel=True))
HELD_OUT = _HELD.cases
add = _HELD.add


# --- Passwords given to commands as flags or arguments -------------------------------------
add("cli-arg", "lftp -u backup,{p} sftp://files.example.net")
add("cli-arg", "lftp -e 'mirror -R site/ /www; quit' -u 'deploy,{p}' ftp.example.org")
add("cli-arg", "rabbitmqctl add_user svc_orders {p}")
add("cli-arg", "sudo rabbitmqctl change_password guest '{p}'")
add("cli-arg", "openssl enc -aes-256-cbc -salt -in db.sql -out db.sql.enc -k {p}")
add("cli-arg", "openssl pkcs12 -export -in cert.pem -inkey key.pem -out b.p12 -passout pass:{p}")
add("cli-arg", "ssh-keygen -t ed25519 -f ~/.ssh/deploy -N '{p}' -C ci@build")
add("cli-arg", "ssh-keygen -p -f ~/.ssh/id_rsa -P {p} -N {q}")
add("cli-arg", "psexec \\\\10.0.0.12 -u CORP\\svc_backup -p {p} cmd.exe")
add("cli-arg", 'PsExec64.exe -accepteula -s -u Administrator -p "{p}" \\\\fileserver ipconfig')
add("cli-arg", "net use Z: \\\\nas01\\share /user:CORP\\jdoe {p} /persistent:yes")
add("cli-arg", 'net use \\\\10.1.1.5\\IPC$ "{p}" /user:administrator')
add("cli-arg", "mosquitto_pub -h broker.local -u sensor -P {p} -t home/temp -m 21.5")
add("cli-arg", "mosquitto_sub -h mqtt.example.com -p 8883 -u app -P '{p}' -t '#' -v")
add(
    "cli-arg",
    "aws ssm put-parameter --name /prod/db/password --type SecureString --value '{p}'",
)
add("cli-arg", 'aws ssm put-parameter --name "/app/smtp" --value {p} --overwrite')
add("cli-arg", 'spawn ssh admin@10.0.0.9\nexpect "password:"\nsend "{p}\\r"\ninteract')
add("cli-arg", 'expect -c \'spawn sudo -k true; expect "assword"; send "{p}\\r"; interact\'')
add("cli-arg", "./deploy.sh --db-password {p} --env prod")
add("cli-arg", 'vault-migrate --admin-pass="{p}" --dry-run')
add("cli-arg", "sshpass -p '{p}' ssh -o StrictHostKeyChecking=no root@10.0.0.7")
add("cli-arg", "mysqldump -u root -p'{p}' --all-databases > all.sql")
add("cli-arg", "mariadb -h db -uadmin -p{p} shop")
add("cli-arg", 'curl -u "ci-bot:{p}" https://jenkins.example.com/api/json')
add("cli-arg", "htpasswd -bc /etc/nginx/.htpasswd admin {p}")
add("cli-arg", "smbclient //fs01/public -U 'guest%{p}'")
add("cli-arg", "PGPASSWORD={p} psql -h db.internal -U app -d orders")
add("cli-arg", "docker login registry.example.com -u builder -p {p}")
add("cli-arg", "ipmitool -I lanplus -H 10.0.0.50 -U ADMIN -P {p} chassis power status")
add("cli-arg", "xfreerdp /v:10.0.0.20 /u:Administrator /p:'{p}' /cert:ignore")
add("cli-arg", "git clone https://jdoe:{p}@git.example.com/team/app.git")
add("cli-arg", "mount -t cifs //nas/media /mnt/media -o username=kodi,password={p},vers=3.0")
add("cli-arg", 'nmcli device wifi connect "HomeNet" password {p}')
add("cli-arg", "wpa_passphrase HomeNet '{p}' >> /etc/wpa_supplicant/wpa_supplicant.conf")
add("cli-arg", "net user backupsvc {p} /add")
add("cli-arg", "rdesktop -u admin -p {p} 10.0.0.3")
add("cli-arg", "snmpwalk -v3 -u monitor -l authPriv -a SHA -A {p} -x AES -X {q} 10.0.0.1")
add("cli-arg", "crackmapexec smb 10.0.0.0/24 -u administrator -p '{p}'")
add("cli-arg", "impacket-psexec 'CORP/admin:{p}@10.0.0.4'")
add("cli-arg", "unzip -P {p} archive.zip")

# --- Redis ------------------------------------------------------------------------------------
add("redis", 'redis-cli -h cache CONFIG SET requirepass "{p}"')
add("redis", "redis-cli -a {p} --no-auth-warning INFO keyspace")
add("redis", "127.0.0.1:6379> AUTH {p}\nOK")

# --- Config lines -----------------------------------------------------------------------------
add("config", 'network={\n    ssid="Office"\n    psk="{p}"\n    key_mgmt=WPA-PSK\n}')
add("config", "interface=wlan0\nssid=GuestNet\nwpa=2\nwpa_passphrase={p}")
add("config", "define( 'DB_PASSWORD', '{p}' );")
add("config", "<?php\ndefine('DB_USER', 'wp');\ndefine(\"DB_PASSWORD\", \"{p}\");")
add(
    "config",
    "auth-user-pass /etc/openvpn/creds.txt\n$ cat /etc/openvpn/creds.txt\nvpnuser\n{p}\n",
)
add("config", "cat > /etc/openvpn/client/auth.txt <<'EOF'\nalice\n{p}\nEOF")
add("config", "db.internal:5432:orders:app:{p}")
add("config", 'echo "localhost:5432:*:postgres:{p}" > ~/.pgpass && chmod 600 ~/.pgpass')
add("config", "[database]\nhost = 10.0.0.8\nuser = app\npassword = {p}")
add("config", '[client]\nuser=root\npassword="{p}"')
add("config", "spring:\n  datasource:\n    username: app\n    password: {p}")
add(
    "config",
    '"ConnectionStrings": {"Default": "Server=sql01;Database=Shop;User Id=shop;Password={p};"}',
)
add("config", "Data Source=db;Initial Catalog=crm;User ID=sa;Pwd={p}")
add("config", "jdbc:postgresql://db:5432/app?user=app&password={p}&ssl=true")
add("config", "url=jdbc:oracle:thin:scott/{p}@//db.example.com:1521/ORCL")
add("config", "javax.net.ssl.keyStorePassword={p}\nmail.smtp.password: {q}")
add("config", "[smtp.gmail.com]:587 alerts@example.com:{p}")
add("config", ': PSK "{p}"')
add("config", "services:\n  db:\n    environment:\n      MYSQL_ROOT_PASSWORD: {p}")
add("config", 'set smtp_pass = "{p}"')

# --- Prose ------------------------------------------------------------------------------------
add("prose", "btw the db pass is {p} if you need to connect manually")
add("prose", "Login for the staging panel: admin / {p}")
add("prose", "the key is {p}, keep it out of the repo")
add("prose", "pw: {p}")
add("prose", "The password for the grafana admin is {p}.")
add("prose", "creds are root / {p} on all three boxes")
add("prose", "Use {p} as the password for the new account.")
add("prose", "The wifi password's {p}; the guest network is open.")
add("prose", "Das Passwort lautet {p}, bitte nicht weitergeben.")
add("prose", "Le mot de passe est {p} pour le compte admin.")
add("prose", "contraseña: {p}")
add("prose", "a senha do banco é {p}")
add("prose", "пароль от сервера: {p}")
add("prose", "数据库密码\uff1a{p}")  # a full-width colon
add("prose", "ok so pass is {p} for now, I'll rotate it tomorrow")
add("prose", "user: deploy pass: {p}")
add("prose", "the api secret is {p}")
