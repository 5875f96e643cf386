"""The OpenAPI document: valid OpenAPI 3.1, every route documented and every documented path routed."""
from __future__ import annotations

import re

import jsonschema_rs
from schemathesis.specs.openapi.adapter.validators import validate_v3

from web import create_app
from web.openapi import document


def test_the_document_validates_as_openapi_3():
    spec = document()
    assert spec["openapi"] == "3.1.0"
    validate_v3(spec)  # the official OpenAPI 3.1 meta-schema, as bundled with schemathesis; raises when invalid


def test_every_schema_compiles_and_every_ref_resolves():
    spec = document()
    for name in spec["components"]["schemas"]:
        schema = {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
        jsonschema_rs.Draft202012Validator(schema, validate_formats=False)
    refs = set(re.findall(r"#/components/(\w+)/(\w+)", str(spec)))
    for kind, name in refs:
        assert name in spec["components"][kind], (kind, name)


def test_every_api_route_is_documented_and_back(fake_port):
    app = create_app(fake_port)
    routed = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                routed.add((path, method.lower()))
    documented = {(path, method) for path, item in document()["paths"].items() for method in item}
    assert routed == documented


def test_every_operation_documents_its_errors_as_error_bodies():
    spec = document()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            assert operation["summary"] and "200" in operation["responses"], (path, method)
            if operation["security"]:
                assert "403" in operation["responses"], (path, method)
            if method == "post":
                assert {"400", "403", "413"} <= set(operation["responses"]), (path, method)
