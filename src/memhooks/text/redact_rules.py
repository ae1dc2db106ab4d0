# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The table of ``redact``'s rules, in priority order: token formats first, then secrets
found by their context, then values behind secret names. Standard library only."""

from __future__ import annotations

import re

from memhooks.text.lazy_re import LazyBytes
from memhooks.text.redact_commands import command_spans
from memhooks.text.redact_contexts import CONTEXT_RULES
from memhooks.text.redact_engine import Rule, Scan, lit, text
from memhooks.text.redact_files import file_spans
from memhooks.text.redact_formats import NOT_TOKEN, NOT_WORD, prefixed_rules
from memhooks.text.redact_pairs import csv_secret_spans, named_secret_spans
from memhooks.text.redact_prose import told_spans
from memhooks.text.redact_shapes import KIND as RANDOM_TOKEN
from memhooks.text.redact_shapes import random_token_spans
from memhooks.text.redact_values import can_be_secret, code_like, is_placeholder, looks_random

#: A value after a flag or a keyword: quoted (escapes allowed, may be cut short) or bare.
_ARG = (
    rb"""(?:"(?P<dq>(?:[^"\\\r\n]|\\.)*)(?:"|(?=[\r\n])|$)"""
    rb"""|'(?P<sq>[^'\r\n]*)(?:'|(?=[\r\n])|$)|(?P<bare>[^\s"'`|;&<>]+))"""
)
_ARG_GROUPS = ("dq", "sq", "bare")
# Priority order: when two matches overlap, the earlier rule wins, so that
# ``API_KEY=sk-ant-…`` is labelled an Anthropic key rather than a generic secret.
RULES: tuple[Rule | Scan, ...] = (
    Rule(
        "private-key",
        lit(b"-----begin"),
        LazyBytes(
            rb"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
            rb"(?:.*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,\\-]*)",
            re.DOTALL,
        ),
    ),
    Rule(
        "private-key",
        text(b"PuTTY-User-Key-File"),
        LazyBytes(rb"PuTTY-User-Key-File.*?Private-MAC:[^\r\n]*", re.DOTALL),
    ),
    Rule(
        "jwt",
        text(b"eyJ"),
        LazyBytes(NOT_TOKEN + rb"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?"),
    ),
    Rule(
        "aws-access-key",
        text(*(b"A" + p for p in b"KIA SIA GPA IDA ROA NPA IPA BIA CCA NVA PKA".split())),
        LazyBytes(
            NOT_WORD + rb"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|AIPA|ABIA|ACCA|ANVA|APKA)"
            rb"[A-Z0-9]{16}(?![A-Za-z0-9])"
        ),
    ),
    Rule(
        # The secret beside its key id: a credentials CSV row, `aws configure` input.
        "aws-secret",
        text(b"AKIA", b"ASIA"),
        LazyBytes(
            rb"A(?:KIA|SIA)[A-Z0-9]{16}[\"']?[ \t]*[,;|\t: ][ \t]*[\"']?"
            rb"(?P<value>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        ("value",),
    ),
    Rule(
        "aws-secret",
        lit(b"aws"),
        LazyBytes(
            rb"(?i)aws_?(?:secret_?(?:access_?)?key|session_?token)[\"']?"
            rb"(?:[ \t]*\[[^\]\r\n]{0,40}\])?(?:[ \t]*[:=][ \t]*|[ \t]+)[\"']?"
            rb"(?P<value>[A-Za-z0-9/+=]{30,})"
        ),
        ("value",),
    ),
    Rule(
        "aws-secret",
        lit(b"configure"),
        LazyBytes(
            rb"(?i)configure[ \t]+set[ \t]+(?:--profile[ \t]+\S+[ \t]+)?"
            rb"[\w.]*(?:secret|token|key|password)[\w.]*[ \t]+" + _ARG
        ),
        _ARG_GROUPS,
        can_be_secret,
    ),
    Rule(
        "github-token",
        text(b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_", b"github_pat_"),
        LazyBytes(
            NOT_WORD + rb"(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})"
            rb"(?![A-Za-z0-9_])"
        ),
    ),
    Rule(
        "webhook-url",
        lit(b"hooks.slack.com/", b"/api/webhooks/", b"webhook.office.com/"),
        LazyBytes(
            rb"(?:hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+"
            rb"|/api/webhooks/\d+/[A-Za-z0-9_-]+"
            rb"|webhook\.office\.com/[A-Za-z0-9/@_.-]+)"
        ),
    ),
    Rule(
        "slack-token",
        text(b"xox", b"xapp"),
        LazyBytes(
            NOT_WORD + rb"(?:xox[a-z](?:\.xox[a-z])?-[A-Za-z0-9%.-]{8,}"
            rb"|xapp-\d-[A-Za-z0-9-]{10,})"
        ),
    ),
    Rule(
        "anthropic-key",
        text(b"sk-ant-"),
        LazyBytes(NOT_TOKEN + rb"sk-ant-[A-Za-z0-9_-]{20,}"),
    ),
    Rule(
        "api-key",
        text(b"sk-"),
        LazyBytes(NOT_TOKEN + rb"sk-[A-Za-z0-9_-]{20,}"),
        is_secret=looks_random,
    ),
    Rule(
        "google-api-key",
        text(b"AIza"),
        LazyBytes(NOT_TOKEN + rb"AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
    ),
    Rule(
        "stripe-key",
        text(b"k_live_", b"k_test_", back=1),
        LazyBytes(NOT_WORD + rb"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}"),
    ),
    Rule(
        "telegram-token",
        text(b":AA", back=10),
        LazyBytes(rb"[^\n]{0,2}?(?<![0-9])(?P<value>[0-9]{8,10}:AA[0-9A-Za-z_-]{30,})"),
        ("value",),
    ),
    Rule(
        "vault-token",
        lit(b"vault"),
        LazyBytes(rb"(?i:vault)[^\r\n]{0,200}?(?<![\w.])(?P<value>[sbr]\.[A-Za-z0-9]{24,})"),
        ("value",),
    ),
    Rule(
        "auth-header",
        lit(b"authorization"),
        LazyBytes(
            rb"(?i)authorization[\"']?[ \t]*[:=][ \t]*[\"']?[ \t]*"
            rb"(?:(?:bearer|basic|token|bot|apikey|api-key|sso-key|key|dpop|otp)[ \t]+"
            rb"(?P<value>[^\s\"',;]+)"
            rb"|(?P<rest>(?:digest|aws4-hmac-sha256|hmac|negotiate|ntlm|oauth|signature)"
            rb"[ \t]+[^\r\n\"']+)|(?P<other>[^\s\"',;{]+))"
        ),
        ("value", "rest", "other"),
        lambda value: not is_placeholder(value) and not code_like(value),
    ),
    Rule(
        "cookie",
        lit(b"cookie"),
        LazyBytes(
            rb"(?i)(?<![A-Za-z0-9_])(?:set-)?cookie[\"']?[ \t]*[:=][ \t]*[\"']?"
            rb"(?P<value>[^\r\n\"']+)"
        ),
        ("value",),
        can_be_secret,
    ),
    Rule(
        "cookie",
        lit(b"--cookie", b" -b"),
        LazyBytes(rb"(?:--cookie|[ \t]-b)(?:=|[ \t]+)" + _ARG),
        _ARG_GROUPS,
        lambda value: b"=" in value and can_be_secret(value),
    ),
    Rule(
        "bearer-token",
        lit(b"bearer"),
        LazyBytes(rb"(?i)" + NOT_WORD + rb"bearer\s+(?P<value>[A-Za-z0-9._~+/-]{20,}=*)"),
        ("value",),
        lambda value: not is_placeholder(value),
    ),
    Rule(
        # user:password@host; the password may hold `@` (the last before the host ends it),
        # never `/` (`http://host:3000/x?e=a@b.c` is a port); the user never holds `[` (a marker).
        "url-password",
        text(b"://"),
        LazyBytes(
            rb"://[^\s:/@\"'<>\[]*:(?P<value>[^\s/\"'<>]+)@(?=[^\s@/\"'<>]*(?:[/?#\s\"'<>]|$))"
        ),
        ("value",),
        lambda value: not is_placeholder(value),
    ),
    Rule(
        "url-password",
        text(b"://"),
        LazyBytes(rb"://(?P<value>[A-Za-z0-9_.~%+-]{20,})@"),
        ("value",),
        looks_random,
    ),
    Rule(
        # An Azure storage or Cosmos DB key: 64 bytes in base64, alone (a key list's "value").
        "azure-key",
        text(b"==", back=86),
        LazyBytes(rb"(?<![A-Za-z0-9+/=-])[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=])"),
        is_secret=looks_random,
    ),
    Rule(
        # <password>…</password>, <add key="DbPassword" value="…"/>
        "secret",
        lit(b"pass", b"secret", b"token", b"key", b"credential"),
        LazyBytes(
            rb"(?i)(?:pass(?:word|wd)?|secret|token|apikey|api[_-]key|credentials?)[\w:.-]*>"
            rb"(?P<value>[^<\r\n]+)</"
            rb"|(?:pass(?:word|wd)?|secret|token|key|credentials?)[\w.-]*\"[ \t]+value=\""
            rb"(?P<attr>[^\"\r\n]*)\""
        ),
        ("value", "attr"),
        can_be_secret,
        needs=(b"</", b"value="),
    ),
    Scan("secret", named_secret_spans),
    Scan("secret", csv_secret_spans),
    Rule(
        # fish `set -x NAME value`, Windows `setx NAME value`, csh `setenv NAME value`
        "secret",
        lit(b"set ", b"set\t", b"setx", b"setenv"),
        LazyBytes(
            rb"(?i)(?<![\w-])(?:set[ \t]+-[a-z]*[xg][a-z]*|setx|setenv)[ \t]+"
            rb"\w*(?:pass|pwd|secret|token|key|cred|auth)\w*[ \t]+" + _ARG
        ),
        _ARG_GROUPS,
        can_be_secret,
    ),
    Rule(
        "netrc",
        lit(b"machine", b"default"),
        LazyBytes(
            rb"(?<![\w-])(?:machine[ \t]+\S+|default)"
            rb"(?:\s+(?:login|account|port)[ \t]+\S+)*\s+password[ \t]+(?P<value>\S+)"
        ),
        ("value",),
        can_be_secret,
    ),
    Rule(
        "netrc",
        lit(b"login"),
        LazyBytes(rb"(?i)(?<![\w-])login[ \t]+\S+[ \t]+password[ \t]+(?P<value>\S+)"),
        ("value",),
        can_be_secret,
    ),
    Rule(
        # `curl -u user:pass`, `--user user:pass`: only the user:password form, so that
        # `git push -u origin` and `docker run -u 1000:1000` (numbers) are left alone.
        "cli-credential",
        text(b"-u", b"--user", b"--proxy-user"),
        LazyBytes(
            rb"(?:(?<=\s)-u|--user|--proxy-user)[ \t=]+[\"']?[^\s:\"']+:"
            rb"(?P<value>(?:[^\s\"'`\\]|\\.)+)"
        ),
        ("value",),
        can_be_secret,
    ),
    Rule(
        "cli-credential",
        lit(b" -u"),
        LazyBytes(rb"[ \t]-U[ \t]+[\"']?[^\s%\"']+%(?P<value>[^\s\"'`]+)"),
        ("value",),
        can_be_secret,
    ),
    Rule(
        # openssl/keytool style: `-passin pass:X`, `-storepass X`, `-keypass X`.
        "cli-credential",
        lit(
            b" -pass",
            b" -storepass",
            b" -keypass",
            b" -srcstorepass",
            b" -deststorepass",
            b" -password",
            b" -secret",
            b" -token",
        ),
        LazyBytes(rb"(?i)[ \t]-[a-z]*(?:pass|password|secret|token)[a-z]*[ \t]+(?!-)" + _ARG),
        _ARG_GROUPS,
        can_be_secret,
    ),
    Rule(
        "cli-credential",
        lit(b"--from-literal", b"--body"),
        LazyBytes(rb"(?:--from-literal[ \t=]+[\"']?[\w.-]+=|(?<=\s)--body[ \t=]+)" + _ARG),
        _ARG_GROUPS,
        can_be_secret,
    ),
    Rule(
        # `echo 'hunter2' | docker login --password-stdin`, `… | sudo -S`, `… | chpasswd`
        "cli-credential",
        lit(b"echo", b"printf"),
        LazyBytes(
            rb"(?<![\w-])(?:echo|printf)[ \t]+(?:-[a-z]+[ \t]+)*"
            + _ARG
            + rb"[ \t]*\|[^\n]*?(?:--password-stdin|sudo[ \t]+-S|chpasswd|passwd[ \t]+--stdin|kinit"
            rb"|--password[ \t=]*-|\bsecret\b)"
        ),
        _ARG_GROUPS,
        can_be_secret,
    ),
    Scan("cli-credential", command_spans),
    Scan("secret", file_spans),
    Scan("secret", told_spans),
    *prefixed_rules(),
    *CONTEXT_RULES,
    # Last: what no rule above names, known by its shape alone.
    Scan(RANDOM_TOKEN, random_token_spans),
)
