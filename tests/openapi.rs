//! `/openapi.json` against the app that serves it: the description is served unauthenticated
//! and cacheable; every variant of the error table is described where it can be answered;
//! every answer the real app gives on every route (and on an unknown path) is one the
//! description lists, with its content type, required headers and body schema.

mod common;

use actix_web::body::{to_bytes, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::http::header::HeaderMap;
use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use actix_web::ResponseError;
use common::docx::{docx, paragraph};
use common::{multipart, multipart_type, Settings, TestService};
use docx2pdf::db::accounts::Plan;
use docx2pdf::http::{create_app, ApiError};
use serde_json::Value;

/// Follows a local `$ref` (`#/components/...`).
fn resolve<'a>(doc: &'a Value, v: &'a Value) -> &'a Value {
    match v.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let target = r.strip_prefix("#/").unwrap_or_else(|| panic!("a non-local $ref {r}"));
            let found = target.split('/').fold(doc, |at, key| &at[key]);
            assert!(!found.is_null(), "dangling $ref {r}");
            resolve(doc, found)
        }
        None => v,
    }
}

/// Checks `value` against the subset of JSON Schema the description uses (allOf, type,
/// format, pattern, required, properties, enum).
fn conforms(doc: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let schema = resolve(doc, schema);
    for part in schema["allOf"].as_array().into_iter().flatten() {
        conforms(doc, part, value, at)?;
    }
    if let Some(values) = schema["enum"].as_array() {
        if !values.contains(value) {
            return Err(format!("{at}: {value} is not one of {values:?}"));
        }
    }
    let type_ok = match schema["type"].as_str() {
        Some("object") => value.is_object(),
        Some("string") => value.is_string(),
        Some("integer") => value.is_i64() || value.is_u64(),
        _ => true,
    };
    if !type_ok {
        return Err(format!("{at}: {value} is not of type {}", schema["type"]));
    }
    if let Some(format) = schema["format"].as_str() {
        formatted(format, value).map_err(|e| format!("{at}: {value} {e}"))?;
    }
    if let (Some(pattern), Some(text)) = (schema["pattern"].as_str(), value.as_str()) {
        patterned(pattern, text).map_err(|e| format!("{at}: {value} {e}"))?;
    }
    for key in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if value.get(key).is_none() {
            return Err(format!("{at}: the required property {key} is missing from {value}"));
        }
    }
    for (key, sub) in schema["properties"].as_object().into_iter().flatten() {
        if let Some(v) = value.get(key) {
            conforms(doc, sub, v, &format!("{at}.{key}"))?;
        }
    }
    Ok(())
}

/// Checks `value` against a `format` of the description; a format this check does not
/// know fails, so none goes unchecked.
fn formatted(format: &str, value: &Value) -> Result<(), String> {
    let ok = match format {
        "int32" => value.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
        "int64" => value.is_i64(),
        "date-time" => value.as_str().is_some_and(|t| chrono::DateTime::parse_from_rfc3339(t).is_ok()),
        // Bytes and secrets: any string.
        "binary" | "password" => value.is_string(),
        _ => return Err(format!("has the format {format:?}, which this check does not know")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("is not of the format {format:?}"))
    }
}

/// Checks `text` against a `pattern` of the description, one of those it uses; a pattern
/// this check does not know fails.
fn patterned(pattern: &str, text: &str) -> Result<(), String> {
    let ok = match pattern {
        "^[0-9]+$" => !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()),
        "^[ -~]+$" => !text.is_empty() && text.chars().all(|c| (' '..='~').contains(&c)),
        "^[A-Za-z0-9._:-]{1,128}$" => (1..=128).contains(&text.len()) && text.chars().all(|c| c.is_ascii_alphanumeric() || "._:-".contains(c)),
        "^Bearer" => text.starts_with("Bearer"),
        r#"^attachment; filename="[^"\\]*\.pdf"(; filename\*=UTF-8''[!#$&+.^_`|~0-9A-Za-z%-]+)?$"# => attachment(text),
        _ => return Err(format!("has the pattern {pattern:?}, which this check does not know")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("does not match {pattern:?}"))
    }
}

/// `attachment; filename="NAME.pdf"`, NAME without a quote or backslash, optionally
/// followed by `; filename*=UTF-8''` and a percent-encoded name (RFC 6266).
fn attachment(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("attachment; filename=\"") else { return false };
    let Some((name, rest)) = rest.split_once('"') else { return false };
    let encoded = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || "!#$&+.^_`|~%-".contains(c));
    !name.contains('\\')
        && name.ends_with(".pdf")
        && (rest.is_empty() || rest.strip_prefix("; filename*=UTF-8''").is_some_and(encoded))
}

/// The value of a header, as the JSON value its schema describes: a number where the schema
/// says integer, else the text.
fn header_value(schema: &Value, text: &str) -> Value {
    match schema["type"].as_str() {
        Some("integer") => text.parse::<i64>().map_or_else(|_| Value::from(text), Value::from),
        _ => Value::from(text),
    }
}

/// Checks one answer against the description of `method path`: an undescribed method must
/// be the router's 405 and an undescribed path its 404 (components.responses).
fn check_answer(doc: &Value, method: &str, path: &str, status: u16, headers: &HeaderMap, body: &[u8]) -> Result<(), String> {
    let what = format!("{method} {path} answered {status}");
    let item = &doc["paths"][path];
    let response = if item.is_null() {
        if status != 404 {
            return Err(format!("{what}: an undescribed path must answer 404"));
        }
        &doc["components"]["responses"]["NotFound"]
    } else if item[method].is_null() {
        if status != 405 {
            return Err(format!("{what}: an undescribed method must answer 405"));
        }
        let mut methods: Vec<String> = item.as_object().unwrap().keys().map(|m| m.to_uppercase()).collect();
        methods.sort();
        let allow = headers.get("allow").and_then(|v| v.to_str().ok()).unwrap_or_default();
        if allow != methods.join(", ") {
            return Err(format!("{what}: Allow {allow:?}, the description has {methods:?}"));
        }
        &doc["components"]["responses"]["MethodNotAllowed"]
    } else {
        &item[method]["responses"][status.to_string()]
    };
    if response.is_null() {
        return Err(format!("{what}: the description lists no such status"));
    }
    let response = resolve(doc, response);
    for (name, h) in response["headers"].as_object().into_iter().flatten() {
        if h["required"] == true && !headers.contains_key(name.as_str()) {
            return Err(format!("{what}: the required header {name} is missing"));
        }
        if let Some(text) = headers.get(name.as_str()).and_then(|v| v.to_str().ok()) {
            let schema = resolve(doc, &h["schema"]);
            conforms(doc, schema, &header_value(schema, text), &format!("{what}: header {name}"))?;
        }
    }
    // And every header of our own (X-…) the answer carries is described.
    let described = |name: &str| response["headers"].as_object().is_some_and(|hs| hs.keys().any(|k| k.eq_ignore_ascii_case(name)));
    if let Some(name) = headers.keys().map(|n| n.as_str()).find(|n| n.starts_with("x-") && !described(n)) {
        return Err(format!("{what}: the header {name} is not described"));
    }
    let content = &response["content"];
    let Some(types) = content.as_object() else {
        return if body.is_empty() { Ok(()) } else { Err(format!("{what}: a body the description has none for")) };
    };
    let media = headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
    let media = media.split(';').next().unwrap_or_default().trim();
    let Some(described) = types.get(media) else {
        return Err(format!("{what}: content type {media:?} is not among {:?}", types.keys().collect::<Vec<_>>()));
    };
    if media == "application/json" {
        let value: Value = serde_json::from_slice(body).map_err(|e| format!("{what}: not JSON ({e})"))?;
        conforms(doc, &described["schema"], &value, &what)?;
    }
    Ok(())
}

async fn answer<B: MessageBody>(res: ServiceResponse<B>) -> (u16, HeaderMap, Vec<u8>) {
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    (status, headers, test::read_body(res).await.to_vec())
}

fn convert(key: Option<&str>, body: Vec<u8>) -> TestRequest {
    let mut req = TestRequest::post().uri("/api/convert").insert_header(("Content-Type", multipart_type()));
    if let Some(key) = key {
        req = req.insert_header(("Authorization", format!("Bearer {key}")));
    }
    req.set_payload(body)
}

fn code(body: &[u8]) -> String {
    serde_json::from_slice::<Value>(body).ok().and_then(|v| v["code"].as_str().map(str::to_owned)).unwrap_or_default()
}

#[actix_web::test]
async fn the_description_is_served_unauthenticated_and_revalidated_by_etag() {
    let svc = TestService::start(Settings::default()).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let (status, headers, body) = answer(test::call_service(&app, TestRequest::get().uri("/openapi.json").to_request()).await).await;
    assert_eq!(status, 200);
    assert_eq!(headers.get("content-type").unwrap(), "application/json");
    assert!(headers.get("cache-control").unwrap().to_str().unwrap().contains("max-age="));
    let doc: Value = serde_json::from_slice(&body).unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert_eq!(doc["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
    assert_eq!(doc["paths"]["/api/convert"]["post"]["security"][0]["bearer"], serde_json::json!([]));
    let form = resolve(&doc, &doc["paths"]["/api/convert"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"]);
    assert_eq!(form["required"], serde_json::json!(["file"]));
    assert_eq!(resolve(&doc, &form["properties"]["pdfa"])["enum"], serde_json::json!(["PDF/A-1b", "PDF/A-2b", "PDF/A-3b"]));
    // The template data: a JSON object of at most 1 MiB (docs/templates.md).
    let data = resolve(&doc, &form["properties"]["data"]);
    assert_eq!(data["maxLength"], 1_048_576);
    assert!(data["description"].as_str().unwrap().contains("content controls"), "{data}");
    for path in ["/healthz", "/readyz", "/metrics", "/openapi.json"] {
        assert!(doc["paths"][path]["get"]["security"].is_null(), "{path} needs no key");
    }

    let etag = headers.get("etag").unwrap().to_str().unwrap().to_owned();
    let again = TestRequest::get().uri("/openapi.json").insert_header(("If-None-Match", etag.clone())).to_request();
    let (status, headers, body) = answer(test::call_service(&app, again).await).await;
    assert_eq!(status, 304);
    assert!(body.is_empty());
    assert_eq!(headers.get("etag").unwrap().to_str().unwrap(), etag);
    check_answer(&doc, "get", "/openapi.json", status, &headers, &body).unwrap();
    let stale = TestRequest::get().uri("/openapi.json").insert_header(("If-None-Match", "\"other\"")).to_request();
    assert_eq!(test::call_service(&app, stale).await.status(), StatusCode::OK);
}

#[actix_web::test]
async fn every_error_of_the_table_is_described_with_its_code_headers_and_body() {
    let doc = serde_json::to_value(docx2pdf::http::description()).unwrap();
    let mut walked = 0;
    for e in ApiError::every() {
        let res = e.error_response();
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let body = to_bytes(res.into_body()).await.unwrap();
        // The router answers 404 and 405 for any path; every other error comes from the
        // convert handler (readyz answers a subset).
        let (method, path) = match e {
            ApiError::NotFound(_) => ("get", "/nowhere"),
            ApiError::MethodNotAllowed { .. } => ("put", "/api/convert"),
            _ => ("post", "/api/convert"),
        };
        let mut headers = headers;
        if status == 405 {
            headers.insert(actix_web::http::header::ALLOW, "POST".parse().unwrap());
        }
        // The middleware adds X-Request-Id to every answer.
        headers.insert("x-request-id".parse().unwrap(), "0123456789abcdef".parse().unwrap());
        check_answer(&doc, method, path, status, &headers, &body).unwrap_or_else(|err| panic!("{}: {err}", e.code()));
        walked += 1;
    }
    assert!(walked >= 16, "the table has at least the 16 errors of API.md");
}

#[actix_web::test]
async fn every_answer_of_the_app_on_every_route_is_in_the_description() {
    let svc = TestService::start(Settings { max_upload_bytes: 64 * 1024, ..Settings::default() }).await;
    let key = svc.account("acme", Plan::Paid, 100).await;
    let free = svc.account("hobby", Plan::Free, 100).await;
    let broke = svc.account("broke", Plan::Paid, 0).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let (_, _, body) = answer(test::call_service(&app, TestRequest::get().uri("/openapi.json").to_request()).await).await;
    let doc: Value = serde_json::from_slice(&body).unwrap();

    let sample = docx(&paragraph("Described and delivered"));
    let not_multipart = TestRequest::post()
        .uri("/api/convert")
        .insert_header(("Authorization", format!("Bearer {key}")))
        .insert_header(("Content-Type", "text/plain"))
        .set_payload("hello");
    // A `pdfa` level we do not offer, before the file part.
    let bad_option = common::form(&sample, &[("pdfa", "PDF/X-1a")]);
    // PDF/UA asked of a document without a title, nor a heading or a file name to take one
    // from: 200 with X-Conversion-Warnings.
    let pdfua = common::form_named(&sample, None, &[("pdfua", "true")]);
    let cases: Vec<(TestRequest, u16, &str)> = vec![
        (convert(Some(&key), multipart("file", &sample)), 200, ""),
        (convert(Some(&key), pdfua), 200, ""),
        (convert(None, multipart("file", &sample)), 401, "unauthorized"),
        (convert(Some(&key), multipart("file", &sample)).insert_header(("Authorization", "Basic dXNlcjpwYXNz")), 401, "unauthorized"),
        (convert(Some(&free), multipart("file", &sample)), 403, "plan_required"),
        (convert(Some(&key), multipart("document", &sample)), 400, "missing_file"),
        (not_multipart, 400, "invalid_multipart"),
        (convert(Some(&key), bad_option), 400, "invalid_option"),
        (convert(Some(&key), multipart("file", b"")), 400, "empty_file"),
        (convert(Some(&key), multipart("file", b"not a zip")), 400, "invalid_docx"),
        (convert(Some(&key), multipart("file", &common::ole::compound_file(&["WordDocument"]))), 400, "unsupported_format"),
        (
            convert(Some(&key), multipart("file", &common::ole::compound_file(&["EncryptionInfo", "EncryptedPackage"]))),
            400,
            "encrypted_document",
        ),
        (convert(Some(&key), multipart("file", &vec![b'x'; 100 * 1024])), 413, "file_too_large"),
        (convert(Some(&broke), multipart("file", &sample)), 429, "insufficient_credits"),
        (TestRequest::get().uri("/api/convert"), 405, "method_not_allowed"),
        (TestRequest::delete().uri("/api/convert"), 405, "method_not_allowed"),
        (TestRequest::get().uri("/healthz"), 200, ""),
        (TestRequest::get().uri("/readyz"), 200, ""),
        (TestRequest::get().uri("/metrics"), 200, ""),
        (TestRequest::get().uri("/openapi.json"), 200, ""),
        (TestRequest::post().uri("/healthz"), 405, "method_not_allowed"),
        (TestRequest::put().uri("/readyz"), 405, "method_not_allowed"),
        (TestRequest::delete().uri("/metrics"), 405, "method_not_allowed"),
        (TestRequest::post().uri("/openapi.json"), 405, "method_not_allowed"),
        (TestRequest::get().uri("/api/nowhere"), 404, "not_found"),
        (TestRequest::post().uri("/"), 404, "not_found"),
    ];
    for (req, expected, expected_code) in cases {
        let req = req.to_request();
        let (method, path) = (req.method().as_str().to_lowercase(), req.path().to_owned());
        let (status, headers, body) = answer(test::call_service(&app, req).await).await;
        assert_eq!((status, code(&body).as_str()), (expected, expected_code), "{method} {path}");
        check_answer(&doc, &method, &path, status, &headers, &body).unwrap();
    }

    // The database gone: readiness and conversions answer 503 `unavailable`.
    svc.db.clone().close().await.unwrap();
    for (req, method, path) in [
        (TestRequest::get().uri("/readyz"), "get", "/readyz"),
        (convert(Some(&key), multipart("file", &sample)), "post", "/api/convert"),
    ] {
        let (status, headers, body) = answer(test::call_service(&app, req.to_request()).await).await;
        assert_eq!((status, code(&body).as_str()), (503, "unavailable"), "{method} {path}");
        check_answer(&doc, method, path, status, &headers, &body).unwrap();
    }
}

#[test]
fn the_schema_check_holds_values_to_their_format_and_pattern() {
    let doc = Value::Null;
    let schema = |t: &str, f: &str| serde_json::json!({ "type": t, "format": f });
    assert!(conforms(&doc, &schema("integer", "int64"), &Value::from(5), "x").is_ok());
    assert!(conforms(&doc, &schema("integer", "int32"), &Value::from(1_i64 << 40), "x").is_err());
    assert!(conforms(&doc, &schema("string", "date-time"), &Value::from("2026-12-01T00:00:00.000Z"), "x").is_ok());
    assert!(conforms(&doc, &schema("string", "date-time"), &Value::from("2026-12-01 00:00"), "x").is_err());
    assert!(conforms(&doc, &schema("string", "email"), &Value::from("a@b.c"), "x").unwrap_err().contains("does not know"));
    let digits = serde_json::json!({ "type": "string", "pattern": "^[0-9]+$" });
    assert!(conforms(&doc, &digits, &Value::from("12"), "x").is_ok());
    assert!(conforms(&doc, &digits, &Value::from("12.0"), "x").is_err());
    assert!(attachment("attachment; filename=\"a b.pdf\"; filename*=UTF-8''a%20b.pdf"));
    assert!(!attachment("attachment; filename=\"a.docx\""));
    assert!(!attachment("attachment; filename=\"a.pdf\"; filename*=UTF-8''a b.pdf"));
    let header = serde_json::json!({ "type": "integer", "format": "int64" });
    assert!(conforms(&doc, &header, &header_value(&header, "12"), "x").is_ok());
    assert!(conforms(&doc, &header, &header_value(&header, "twelve"), "x").is_err());
}
