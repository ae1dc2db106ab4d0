# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Token formats known by their leading literal (`npm_`, `hvs.`, `glpat-`, …): one row each,
made into `redact` rules that look for the literal first. Standard library only."""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.text.lazy_re import LazyBytes
from memhooks.text.redact_engine import Rule, always, random, text

if TYPE_CHECKING:
    from collections.abc import Callable

NOT_WORD = rb"(?<![A-Za-z0-9_])"
NOT_TOKEN = rb"(?<![A-Za-z0-9_-])"
END = rb"(?![A-Za-z0-9_-])"


#: Known token formats: (kind, leading literal, rest of the pattern, check)
_PREFIXED: tuple[tuple[str, bytes, bytes, Callable[[bytes], bool]], ...] = (
    (
        "gitlab-token",
        b"gl",
        rb"(?:pat|dt|rt|ptt|cbt|oas|soat|ffct|agent|imt|ft|wt|rtr|cc)-"
        rb"[0-9A-Za-z_-]{20,}",
        always,
    ),
    ("gitlab-token", b"GR1348941", rb"[0-9A-Za-z_-]{20,}", always),
    ("npm-token", b"npm_", rb"[A-Za-z0-9]{30,}", random),
    ("pypi-token", b"pypi-", rb"[A-Za-z0-9_-]{40,}", always),
    ("huggingface-token", b"hf_", rb"[A-Za-z0-9]{30,}", random),
    ("huggingface-token", b"api_org_", rb"[A-Za-z0-9]{30,}", random),
    ("vault-token", b"hv", rb"[sbr]\.[A-Za-z0-9_-]{20,}", always),
    ("sendgrid-key", b"SG.", rb"[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", always),
    ("twilio-key", b"SK", rb"[0-9a-f]{32}", always),
    ("twilio-sid", b"AC", rb"[0-9a-f]{32}", always),
    ("stripe-key", b"whsec_", rb"[A-Za-z0-9+/=]{20,}", always),
    ("google-oauth", b"ya29.", rb"[0-9A-Za-z_-]{20,}", always),
    ("google-oauth", b"GOCSPX-", rb"[0-9A-Za-z_-]{20,}", always),
    ("google-oauth", b"1//0", rb"[0-9A-Za-z_-]{30,}", always),
    ("docker-token", b"dckr_", rb"(?:pat|oat)_[A-Za-z0-9_-]{20,}", always),
    ("digitalocean-token", b"dop_v1_", rb"[a-f0-9]{40,}", always),
    ("digitalocean-token", b"doo_v1_", rb"[a-f0-9]{40,}", always),
    ("digitalocean-token", b"dor_v1_", rb"[a-f0-9]{40,}", always),
    ("shopify-token", b"shp", rb"(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", always),
    ("grafana-token", b"gl", rb"(?:c|sa)_[A-Za-z0-9_+/=-]{30,}", random),
    ("linear-key", b"lin_", rb"(?:api|oauth)_[A-Za-z0-9]{30,}", always),
    ("notion-token", b"ntn_", rb"[A-Za-z0-9]{30,}", random),
    ("notion-token", b"secret_", rb"[A-Za-z0-9]{40,}", random),
    ("postman-key", b"PMAK-", rb"[a-f0-9]{24}-[a-f0-9]{30,}", always),
    ("age-secret-key", b"AGE-SECRET-KEY-1", rb"[0-9A-Z]{50,}", always),
    ("databricks-token", b"dapi", rb"[a-f0-9]{32}(?:-\d)?", always),
    ("supabase-token", b"sbp_", rb"[a-f0-9]{40}", always),
    ("pulumi-token", b"pul-", rb"[a-f0-9]{40}", always),
    # documented as 27 upper-case characters; a longer, shorter or lower-cased run is still a key
    ("newrelic-key", b"NRAK-", rb"[A-Za-z0-9]{20,}", always),
    ("sentry-token", b"sntry", rb"[su]_[A-Za-z0-9+/=_-]{30,}", always),
    ("atlassian-token", b"ATATT", rb"[A-Za-z0-9_=-]{50,}", always),
    ("figma-token", b"figd_", rb"[A-Za-z0-9_-]{30,}", always),
    ("planetscale-token", b"pscale_", rb"(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{30,}", always),
    ("rubygems-key", b"rubygems_", rb"[a-f0-9]{48}", always),
    ("mailgun-key", b"key-", rb"[0-9a-f]{32}", always),
    ("square-token", b"sq0", rb"(?:atp|csp|idp)-[0-9A-Za-z_-]{20,}", always),
    ("firebase-key", b"AAAA", rb"[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}", always),
    ("terraform-token", b".atlasv1.", rb"[A-Za-z0-9_-]{60,}", always),
)


def prefixed_rules() -> tuple[Rule, ...]:
    return tuple(
        Rule(
            kind,
            text(literal),
            LazyBytes(
                (NOT_TOKEN if not literal.startswith(b".") else rb"(?<=[A-Za-z0-9])")
                + re.escape(literal)
                + rest
                + END
            ),
            is_secret=check,
        )
        if not literal.startswith(b".")
        else Rule(
            kind,
            text(literal, back=14),
            LazyBytes(rb"[A-Za-z0-9]{14}" + re.escape(literal) + rest + END),
            is_secret=check,
        )
        for kind, literal, rest, check in _PREFIXED
    )
