"""FAKE human-chosen passwords in the forms of issue 32, finding 8, and their near-misses.

The families: passwords given to commands as flags or arguments, config lines, prose, Redis.
The rules were tuned on ``TUNE``; tests/secret_corpus_forms_held.py holds a set of the same
families with other tools, quoting and phrasing, written first and only measured.
``NEAR_MISSES`` are ordinary commands, config and prose of the same shapes that must come out
of ``redact`` unchanged.

Every value is generated from a fixed seed (no real credential). ``TUNE`` holds
(family, text, values that must not survive).
"""

from __future__ import annotations

import random
import string
from typing import NamedTuple

Case = tuple[str, str, tuple[str, ...]]


class Passwords(NamedTuple):
    """How one set's fake passwords are made (the held-out set's differ from these)."""

    seed: int
    words: str  # space-separated
    joiner: str  # between the parts of `word.word.42`
    alphabet: str  # the random ones' symbols
    lengths: tuple[int, int]  # of the random ones
    camel: bool  # two words as `WordWord7`, else `word_word`


class Corpus:
    """(family, text, values that must not survive): the cases of one set, every value made
    from the set's fixed seed (no real credential)."""

    def __init__(self, passwords: Passwords) -> None:
        self.passwords = passwords
        self.words = passwords.words.split()
        self.rng = random.Random(passwords.seed)  # noqa: S311 - fake values, reproducible
        self.cases: list[Case] = []

    def human(self) -> str:
        """A password as people choose them: words, years, a symbol, some leet, or random."""
        rng = self.rng
        word = rng.choice(self.words)
        style = rng.randrange(6)
        if style == 0:
            return f"{word.capitalize()}{rng.randint(1990, 2029)}{rng.choice('!#$%&*')}"
        if style == 1:
            leet = word.translate(str.maketrans("aeio", "4310"))
            return f"{leet.capitalize()}{rng.choice('!@#$')}{rng.randint(10, 99)}"
        if style == 3:
            return f"{word}{rng.randint(1, 999)}"
        if style == 4:
            alphabet = string.ascii_letters + string.digits + self.passwords.alphabet
            return "".join(
                rng.choice(alphabet) for _ in range(rng.randint(*self.passwords.lengths))
            )
        return self.two_words(word, joined=style == 2)

    def two_words(self, word: str, *, joined: bool) -> str:
        rng, joiner = self.rng, self.passwords.joiner
        if joined:
            return f"{word}{joiner}{rng.choice(self.words)}{joiner}{rng.randint(10, 99)}"
        if self.passwords.camel:
            return f"{word.capitalize()}{rng.choice(self.words).capitalize()}{rng.randint(1, 9)}"
        return f"{word}_{rng.choice(self.words)}"

    def add(self, family: str, template: str) -> None:
        values = {"p": self.human(), "q": self.human()}
        text = template.replace("{p}", values["p"]).replace("{q}", values["q"])
        kept = tuple(v for k, v in values.items() if "{" + k + "}" in template)
        self.cases.append((family, text, kept))


_WORDS = (
    "river summit pebble glacier hazel cinder aurora badger coral fjord lotus mango nimbus "
    "oyster prairie raven sierra topaz umber velvet"
)
_TUNE = Corpus(Passwords(20261130, _WORDS, ".", "!#%^*_-+", (9, 15), camel=False))
TUNE = _TUNE.cases
add = _TUNE.add


# --- Passwords given to commands as flags or arguments -------------------------------------
add("cli-arg", 'lftp -u "mirror,{p}" -p 2121 ftp.internal.lan')
add("cli-arg", "lftp -c 'open -u admin,{p} sftp://10.0.0.4; put build.tgz'")
add("cli-arg", "rabbitmqctl add_user 'monitoring' '{p}'")
add(
    "cli-arg",
    "docker exec rabbit rabbitmqctl add_user admin {p} && rabbitmqctl set_user_tags admin admin",
)
add("cli-arg", 'openssl enc -d -aes256 -in backup.tar.enc -out backup.tar -k "{p}"')
add("cli-arg", "openssl enc -aes-128-cbc -pbkdf2 -in notes.txt -pass pass:{p} -out notes.enc")
add("cli-arg", "openssl req -new -key srv.key -passin pass:'{p}' -out srv.csr")
add("cli-arg", 'ssh-keygen -q -t rsa -b 4096 -N "{p}" -f /tmp/build_key')
add("cli-arg", "psexec.exe \\\\web02 -u admin -p {p} -i powershell")
add("cli-arg", "net use S: \\\\files\\scans {p} /user:OFFICE\\scanner")
add("cli-arg", 'net use \\\\192.168.1.10\\backup /user:backup "{p}"')
add("cli-arg", "mosquitto_pub -t sensors/door -m open -u door -P '{p}' -h 192.168.1.2")
add("cli-arg", 'aws ssm put-parameter --name DB_PASS --value "{p}" --type SecureString')
add("cli-arg", 'expect "Password:" { send "{p}\\r" }')
add(
    "cli-arg",
    '#!/usr/bin/expect\nspawn ftp files.lan\nexpect "Name"\nsend "ops\\r"\n'
    'expect "Password"\nsend "{p}\\r"',
)
add("cli-arg", "./backup --encryption-pass {p} --target s3://bkp")
add("cli-arg", "myapp serve --jwt-secret='{p}' --port 8080")
add(
    "cli-arg",
    "kcadm.sh config credentials --server http://kc:8080 --realm master --password {p}",
)
add("cli-arg", "sshpass -p {p} scp build.tgz deploy@10.0.0.9:/srv")
add("cli-arg", "mysql -uroot -p{p} -e 'show databases'")
add("cli-arg", 'mysqladmin -u root -p"{p}" status')
add("cli-arg", "curl -sk --user admin:{p} https://10.0.0.2/api/v1/status")
add("cli-arg", "htpasswd -b -B .htpasswd grafana '{p}'")
add("cli-arg", "smbclient -L //10.0.0.30 -U admin%{p}")
add("cli-arg", "export PGPASSWORD='{p}'; pg_restore -h db -U app -d app dump.pgc")
add("cli-arg", 'docker login -u "ci" -p "{p}" registry.gitlab.com')
add("cli-arg", "ipmitool -H bmc03 -U root -P '{p}' sol activate")
add("cli-arg", "xfreerdp /u:jdoe /p:{p} /v:rdp.example.com")
add("cli-arg", "pip install --index-url https://build:{p}@pypi.internal/simple app")
add("cli-arg", 'nmcli con add type wifi ssid Lab wifi-sec.key-mgmt wpa-psk wifi-sec.psk "{p}"')
add("cli-arg", "mount.cifs //srv/share /mnt/s -o user=bob,pass={p}")
add("cli-arg", "net user Administrator {p}")
add("cli-arg", "zip -P {p} -r secrets.zip ./keys")
add("cli-arg", "7z a -p{p} -mhe=on vault.7z docs/")
add("cli-arg", "sqlcmd -S tcp:db,1433 -U sa -P {p} -i init.sql")
add("cli-arg", "snmpget -v3 -l authNoPriv -u nms -a MD5 -A '{p}' 10.0.0.1 sysUpTime.0")
add("cli-arg", "evil-winrm -i 10.0.0.5 -u Administrator -p '{p}'")
add("cli-arg", "ncftpput -u upload -p {p} ftp.example.com /incoming report.pdf")
add("cli-arg", "wget --ftp-user=anon --ftp-password={p} ftp://mirror/file.iso")
add("cli-arg", "sudo -u postgres psql -c \"ALTER USER app WITH PASSWORD '{p}';\"")
add("cli-arg", "ldapsearch -x -D cn=admin,dc=corp -w {p} -b dc=corp")
add("cli-arg", "vncpasswd -f <<< '{p}' > ~/.vnc/passwd")
add("cli-arg", "keytool -genkeypair -alias app -keystore app.jks -storepass {p} -keypass {q}")
add("cli-arg", "java -Djavax.net.ssl.trustStorePassword={p} -jar app.jar")

# --- Redis ------------------------------------------------------------------------------------
add("redis", "redis-cli CONFIG SET requirepass {p}")
add("redis", "redis-cli -h 10.0.0.5 -p 6380 -a '{p}' ping")
add("redis", "redis-cli --pass {p} -n 2 FLUSHDB")
add("redis", "> AUTH default {p}")
add("redis", 'echo "requirepass {p}" >> /etc/redis/redis.conf')

# --- Config lines -----------------------------------------------------------------------------
add("config", 'ctrl_interface=/run/wpa_supplicant\nnetwork={\n  ssid="Lab"\n  psk={p}\n}')
add("config", "define('DB_PASSWORD', '{p}');")
add("config", 'define( "SMTP_PASS", "{p}" );')
add(
    "config",
    "client\nremote vpn.example.com 1194\nauth-user-pass login.conf\n\nlogin.conf:\nbob\n{p}",
)
add("config", "printf 'carol\\n{p}\\n' > /etc/openvpn/pass.txt")
add("config", "machine git.example.com login ci password {p}")
add("config", "*:*:*:replicator:{p}")
add("config", "[mysql]\npassword={p}\nhost=localhost")
add("config", "[credentials]\nusername = api\npassword : {p}")
add("config", "db:\n  user: app\n  pass: {p}\n  host: db")
add("config", "Server=tcp:sql.example.net,1433;Initial Catalog=App;User ID=app;Password='{p}';")
add("config", "jdbc:mysql://db:3306/shop?user=shop&password={p}")
add("config", "jdbc:oracle:thin:system/{p}@localhost:1521:XE")
add("config", "spring.datasource.password={p}\nspring.datasource.username=app")
add("config", "smtp_sasl_password_maps: [mail.example.com]:587 relay@example.com:{p}")
add("config", "hostapd.conf:\nwpa_passphrase={p}")
add("config", 'DB_PASS="{p}"')
add("config", "ENV POSTGRES_PASSWORD={p}")
add("config", "masterauth {p}")
add("config", '<Resource name="jdbc/app" username="app" password="{p}" url="jdbc:mysql://db/app"/>')
add("config", 'psk = "{p}"')

# --- Prose ------------------------------------------------------------------------------------
add("prose", "the db password is {p}")
add("prose", "db pass: {p}")
add("prose", "root / {p}")
add("prose", "use admin/{p} to log in")
add("prose", "The key is {p}")
add("prose", "pwd is {p}")
add("prose", "PW {p}")
add("prose", "password for the vpn is {p}, username is my email")
add("prose", "the password should be {p}")
add("prose", "login with user ops and password {p}")
add("prose", "das Passwort ist {p}")
add("prose", "mot de passe : {p}")
add("prose", "la contraseña es {p}")
add("prose", "senha: {p}")
add("prose", "пароль {p}")
add("prose", "密码是 {p}")
add("prose", "my passphrase = {p}")
add("prose", "pass is {p}")
add("prose", "the token is {p}")

# --- More tools and files, added to widen the table (not the held-out set's forms) -------
add("cli-arg", "echo '{p}' | kinit svc-backup@CORP.EXAMPLE.COM")
add("cli-arg", "http -a deploy:{p} POST https://api.example.com/v1/releases")
add("cli-arg", "racadm -r 10.0.0.60 -u root -p {p} getsysinfo")
add("cli-arg", "rabbitmqadmin -u admin -p '{p}' list queues")
add("cli-arg", "mosquitto_passwd -b /etc/mosquitto/passwd sensor {p}")
add("cli-arg", "expdp system/{p}@ORCL schemas=APP directory=DUMP")
add("cli-arg", "rman target sys/{p}@prod")
add("cli-arg", 'schtasks /create /tn Backup /tr backup.bat /sc daily /ru CORP\\svc /rp "{p}"')
add("cli-arg", "cmdkey /add:fileserver /user:CORP\\jdoe /pass:{p}")
add("cli-arg", 'wmic /node:10.0.0.8 /user:admin /password:"{p}" os get caption')
add("cli-arg", "snmpwalk -v2c -c {p} 10.0.0.1 system")
add("config", "<auth-user-pass>\nvpnuser\n{p}\n</auth-user-pass>")
add("config", "pgbouncer.internal:6432:*:app:{p}")
add("config", "ENV DB_PASSWORD {p}")
add("prose", "creds are admin:{p} for the staging box")
# Added after the held-out set was measured (76/80), for the forms it showed missing; each
# written differently from the held-out sample.
add("cli-arg", 'impacket-secretsdump "CORP.LOCAL/svc-sql:{p}@dc01.corp.local"')
add("config", '10.0.0.1 10.0.0.2 : PSK "{p}"\nvpn.example.com : XAUTH alice "{q}"')
add("prose", "the token is %{p}")
add("prose", "My email password's {p} btw")

NEAR_MISSES: list[str] = [
    "ssh-keygen -t ed25519 -N '' -f ~/.ssh/id_ed25519",
    'ssh-keygen -t rsa -N "" -C "me@example.com"',
    "psql -h localhost -p 5432 -U app -d app",
    "ssh -p 2222 user@host",
    "net use Z: \\\\nas01\\share /user:CORP\\jdoe * /persistent:yes",
    "net use Z: /delete",
    'expect "password:"\nsend "$password\\r"',
    'expect -re "Password: ?"\nsend -- "$env(DB_PASS)\\r"',
    "redis-cli -p 6380 INFO",
    "redis-cli CONFIG GET maxmemory",
    "tar -P -czf out.tgz /etc",
    "grep -P '\\d+' file.txt",
    "mkdir -p build/out",
    "the key is in the vault, ask ops",
    "The password is stored in 1Password.",
    "the key is to keep the cache small",
    "Pass is a small wrapper around gpg.",
    "read/write access for admin / users page",
    "TCP / IP and HTTP / 2",
    "pw: see the team vault",
    "define('WP_DEBUG', true);",
    "define('DB_HOST', 'localhost');",
    "password: ${DB_PASSWORD}",
    'psk="${WIFI_PSK}"',
    "docker run -p 8080:80 nginx",
    "git push -u origin main",
    "pytest -p no:cacheprovider -q",
    "python -m pip install -U pip",
    "aws ssm get-parameter --name /prod/db/password --with-decryption",
    "mosquitto_sub -h broker -t '#' -v",
    "openssl enc -d -aes-256-cbc -in a.enc -out a.txt",
    "openssl x509 -in cert.pem -noout -text",
    "lftp -u anonymous, ftp.debian.org",
    "rabbitmqctl list_users",
    "def check(token: str, *, is_secret: bool = False) -> bool:",
    "html = data[b'text/html']; image = data['image/png']",
    "PasswordField(label='Password', required=True)",
    "x-amz-id-2: 7vJ4YmRbqM8yWl1Fw3Gz5aDkXcP0nT9HsQ2uE6iOj+LfV3wBmN8pZr1KtUy4Cx=",
    "x-amz-request-id: 4E3F0B1A2C9D8E7F",
    "the user name / password pair is checked by PAM",
    "contraseña: requerida",
    "mot de passe : oublié ?",
    "root:x:0:0:root:/root:/bin/bash",
    "snmpwalk -v2c -c public localhost system",
    "admin: true\nuser: false",
    "ENV PATH /usr/local/bin:$PATH",
]
