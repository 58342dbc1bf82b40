"""Writes a schemathesis config giving a sample credential for every security scheme of an
OpenAPI document (the generated mock accepts any): `[auth.openapi.<scheme>]` for API keys,
bearer and basic schemes, each as the document defines it (an API key is a raw value, in
`Authorization` too: the document says nothing of a `Bearer ` prefix); a bearer
`Authorization` header for OAuth 2 and OpenID Connect ones, which schemathesis cannot fill by
itself. The token is `sample-token`, which serve.rs grants every scope, unless SAMPLE_TOKEN
names another (granted none: operations requiring scopes answer 403). Usage:
schemathesis_auth.py DOC > config.toml"""
import json
import os
import sys

import yaml

path = sys.argv[1]
with open(path) as f:
    doc = json.load(f) if path.endswith(".json") else yaml.safe_load(f)
components = doc.get("components") or {}
schemes = components.get("securitySchemes") or doc.get("securityDefinitions") or {}
token = os.environ.get("SAMPLE_TOKEN", "sample-token")
lines, bearer_header = [], False
for name, scheme in sorted(schemes.items()):
    if not isinstance(scheme, dict):
        continue
    kind, http = scheme.get("type"), str(scheme.get("scheme", "")).lower()
    key = json.dumps(name)
    if kind == "apiKey":
        lines += [f"[auth.openapi.{key}]", f"api_key = {json.dumps(token)}"]
    elif kind == "http" and http == "basic" or kind == "basic":
        lines += [f"[auth.openapi.{key}]", 'username = "sample-user"', 'password = "sample-password"']
    elif kind == "http":
        lines += [f"[auth.openapi.{key}]", f"bearer = {json.dumps(token)}"]
    else:
        bearer_header = True
header = [f"headers = {{ Authorization = {json.dumps('Bearer ' + token)} }}"] if bearer_header else []
print("\n".join(header + lines))
