//! `GET /openapi.json`: the OpenAPI 3.1 description of the API, built from the handlers'
//! `#[utoipa::path]` annotations, the body types they answer with and the error table
//! (error.rs) walked variant by variant, so that a new error code appears by itself.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use actix_web::http::header::{self, HeaderName};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::header::Header;
use utoipa::openapi::schema::{AllOfBuilder, KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Content, Ref, RefOr, Response, ResponseBuilder, Schema};
use utoipa::{IntoResponses, Modify, OpenApi, ToSchema};

use super::error::{ErrorBody, InsufficientCreditsBody};
use super::health::Status;
use super::ApiError;

/// How long clients and caches may reuse the description before asking again (with the
/// ETag, a question costs a 304). It changes only when the server is upgraded.
const CACHE_CONTROL: &str = "public, max-age=300";

/// The name of the security scheme of `POST /api/convert`.
const BEARER: &str = "bearer";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "docx2pdf",
        description = "Converts one DOCX file into the PDF Microsoft Word would print, metered \
                       in monthly credits: credits(size) = max(1, ceil(size / 5 MiB)). Errors are \
                       JSON {error, code, message}; `code` is stable. Unknown paths answer 404 \
                       `not_found` and other methods 405 `method_not_allowed` with `Allow`, \
                       both in the same JSON shape (components.responses)."
    ),
    paths(
        super::convert::convert,
        super::health::healthz,
        super::health::readyz,
        super::health::metrics,
        openapi_json
    ),
    components(schemas(ErrorBody, InsufficientCreditsBody, Status, ConvertForm, PdfUa, PdfA)),
    modifiers(&FromErrorTable),
    tags(
        (name = "convert", description = "DOCX to PDF, metered in credits"),
        (name = "operations", description = "Health, readiness, metrics and this description")
    )
)]
struct ApiDoc;

/// The form of `POST /api/convert` (multipart/form-data).
#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct ConvertForm {
    /// The DOCX document. The server judges the bytes, not the part's label or file name; with
    /// `pdfua`, the file name without folder or extension is the title of a document that
    /// has none in its properties, its text or its headings.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// `true` for a tagged PDF/UA-1 document; another value is refused with 400 `invalid_option`.
    #[schema(nullable = false)]
    pdfua: Option<PdfUa>,
    /// The PDF/A conformance to write; another value is refused with 400 `invalid_option`.
    #[schema(nullable = false)]
    pdfa: Option<PdfA>,
    /// The pages to keep, in the document's order: pages and ranges counted from 1,
    /// separated by commas; `10-` runs to the last page and pages past the end are ignored.
    /// Page numbers printed on the pages stay the document's; bookmarks and links to pages
    /// left out are dropped. A malformed value, one that keeps no page, or one sent with
    /// `nativePageRanges` is refused with 400 `invalid_option`.
    #[schema(nullable = false, example = "1-3,7,10-")]
    pages: Option<String>,
    /// `pages` under Gotenberg's name; send one or the other.
    #[serde(rename = "nativePageRanges")]
    #[schema(nullable = false, example = "1-2")]
    native_page_ranges: Option<String>,
    /// Encrypts the PDF with AES-256 (ISO 32000-2 standard security handler, revision 6)
    /// so that it opens only with this password. Not with `pdfa` (400 `invalid_option`).
    #[serde(rename = "userPassword")]
    #[schema(nullable = false, format = Password, example = "open-sesame")]
    user_password: Option<String>,
    /// Encrypts the PDF with AES-256 with this owner password: without it the PDF may be
    /// read, printed and copied from, but not changed. Not with `pdfa`.
    #[serde(rename = "ownerPassword")]
    #[schema(nullable = false, format = Password, example = "owner-secret")]
    owner_password: Option<String>,
    /// Document information replacing the document's properties, as a JSON object with
    /// any of `Title`, `Author`, `Subject`, `Keywords` (an array of strings or a
    /// comma-separated string), `Creator`, `CreationDate` and `ModDate` (ISO 8601). Unknown
    /// keys, wrong types, bad dates and values over 64 KiB are refused with 400
    /// `invalid_option`.
    #[schema(nullable = false, example = r#"{"Title": "Q3 report", "Author": "Finance", "Keywords": ["finance", "Q3"], "CreationDate": "2024-03-01T09:30:00Z"}"#)]
    metadata: Option<String>,
    /// The password that opens a password-protected DOCX (ECMA-376 agile or standard
    /// encryption), as typed in Word: nothing is trimmed; at most 255 characters of UTF-8,
    /// else 400 `invalid_option`. Without it, or when it is wrong, a protected document is
    /// refused with 400 `encrypted_document` saying which; it is never logged or echoed.
    #[schema(nullable = false, format = Password, max_length = 255)]
    password: Option<String>,
    /// Data to fill the document's content controls and MERGEFIELD fields with before it is
    /// converted (docs/templates.md): a JSON object whose keys are the controls' tags (or
    /// titles) and the fields' names, dotted paths reaching into objects
    /// (`customer.address.city`), arrays repeating rows and repeating sections. Values are
    /// text, never markup; a picture control takes a `data:image/png;base64,…` or
    /// `data:image/jpeg;base64,…` URI. Not sent, or `{}`, converts the document as it is.
    /// Invalid JSON, a value that is not an object, more than 1 MiB, or a picture that is
    /// no PNG or JPEG data URI (the server fetches no URL) is refused with 400
    /// `invalid_option` and costs nothing. What was missing or unused is told in `X-Conversion-Warnings`.
    #[schema(nullable = false, max_length = 1048576, example = r#"{"customer": {"name": "Ada Lovelace"}, "items": [{"description": "Consulting", "amount": 1200}], "paid": false}"#)]
    data: Option<String>,
}

/// The values of the `pdfua` form field.
#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub enum PdfUa {
    #[serde(rename = "true")]
    True,
    #[serde(rename = "false")]
    False,
}

/// The values of the `pdfa` form field.
#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub enum PdfA {
    #[serde(rename = "PDF/A-1b")]
    A1b,
    #[serde(rename = "PDF/A-2b")]
    A2b,
    #[serde(rename = "PDF/A-3b")]
    A3b,
}

/// The whole description as JSON with its ETag, built once.
struct Described {
    json: String,
    etag: String,
}

fn described() -> &'static Described {
    static DESCRIBED: OnceLock<Described> = OnceLock::new();
    DESCRIBED.get_or_init(|| {
        let json = description().to_json().expect("the API description serializes");
        let digest = Sha256::digest(json.as_bytes());
        let etag = format!("\"{}\"", digest[..12].iter().map(|b| format!("{b:02x}")).collect::<String>());
        Described { json, etag }
    })
}

/// The OpenAPI description of the service.
pub fn description() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// `GET /openapi.json`: unauthenticated, cacheable, revalidated by ETag.
#[utoipa::path(get, path = "/openapi.json", tag = "operations", responses(DescriptionAnswers))]
pub async fn openapi_json(req: HttpRequest) -> HttpResponse {
    let d = described();
    let matches = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == d.etag));
    let mut res = if matches { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    res.insert_header((header::CACHE_CONTROL, CACHE_CONTROL)).insert_header((header::ETAG, d.etag.as_str()));
    if matches {
        res.finish()
    } else {
        res.content_type("application/json").body(d.json.as_str())
    }
}

/// What a route can answer besides its success: the variants of the error table that reach it.
fn errors_of(route: &str) -> Vec<ApiError> {
    ApiError::every()
        .filter(|e| match route {
            // Everything but the router's own answers: authentication, the upload, credits,
            // the render and the database all happen in the handler.
            "/api/convert" => !is_routing(e),
            "/readyz" => matches!(e, ApiError::Unavailable(_)),
            _ => false,
        })
        .collect()
}

/// 404 and 405: answered by the router for any path or method the description lacks.
fn is_routing(e: &ApiError) -> bool {
    matches!(e, ApiError::NotFound(_) | ApiError::MethodNotAllowed { .. })
}

/// A header as every response carries it: `required` is set through the extensions because
/// utoipa's `Header` lacks the field the OpenAPI Header Object has (3.1 §4.8.21).
fn header(description: &str, schema: impl Into<RefOr<Schema>>) -> Header {
    let mut h = Header::new(schema);
    h.description = Some(description.to_owned());
    h.extensions = Some(Extensions::from_iter([("required", true)]));
    h
}

/// Sent when the document did not get all it asked for: the conformance asked for, fonts,
/// content, links.
fn conversion_warnings() -> Header {
    let mut h = Header::new(string(Some("^[ -~]+$")));
    h.description = Some(
        "What the document asked for and did not get, one entry per kind with its count, comma-separated \
         (printable ASCII): first what keeps it from the pdfua/pdfa asked for (pdfua_notdef_glyph, \
         pdfa_notdef_glyph, pdfua_figure_without_alt, pdfua_table_without_headers, pdfua_no_title), then \
         in order of kind `kind[: detail][ xN]`, e.g. `font_compatible: Calibri -> Carlito`, \
         `font_emulated: Aptos -> Liberation Sans`, `font_substituted: Foo -> Liberation Serif`, \
         `missing_glyphs: 12 (Han) -> Liberation Sans`, `element_skipped: w:object x3`, \
         `link_without_action: javascript: x2`, `picture_placeholder x2`. At most 20 entries and 1 KiB, \
         then `and N more`. The PDF is sent all the same."
            .to_owned(),
    );
    h
}

fn string(pattern: Option<&str>) -> Schema {
    ObjectBuilder::new().schema_type(Type::String).pattern(pattern).build().into()
}

fn request_id() -> Header {
    header(
        "The request's id: a valid incoming X-Request-Id (1-128 of [A-Za-z0-9._:-]) echoed, else a generated one.",
        string(Some("^[A-Za-z0-9._:-]{1,128}$")),
    )
}

fn credits(description: &str) -> Header {
    header(description, string(Some("^[0-9]+$")))
}

/// The header an error response carries, described; one the table has no words for keeps
/// its own (lower-case) name.
fn error_header(name: &HeaderName) -> (String, Header) {
    let (name, h) = match name.as_str() {
        "retry-after" => ("Retry-After", header("Seconds to wait before trying again.", string(Some("^[0-9]+$")))),
        "x-credits-remaining" => ("X-Credits-Remaining", credits("Credits left in the current month.")),
        "x-credits-limit" => ("X-Credits-Limit", credits("The account's monthly allowance.")),
        "www-authenticate" => ("WWW-Authenticate", header("The scheme to authenticate with.", string(Some("^Bearer")))),
        "allow" => ("Allow", header("The methods the path answers.", string(None))),
        other => (other, header("See API.md.", string(None))),
    };
    (name.to_owned(), h)
}

/// The response of one status, from the variants of the error table that answer it: their
/// codes, the body schema and the headers each of them sets.
fn error_response(status: StatusCode, errors: &[&ApiError]) -> Response {
    let codes: BTreeSet<&str> = errors.iter().map(|e| e.code()).collect();
    let body = if errors.iter().any(|e| matches!(e, ApiError::InsufficientCredits { .. })) {
        "InsufficientCreditsBody"
    } else {
        "ErrorBody"
    };
    let schema = AllOfBuilder::new()
        .item(Ref::from_schema_name(body))
        .item(
            ObjectBuilder::new()
                .property("code", ObjectBuilder::new().schema_type(Type::String).enum_values(Some(codes.iter().copied())))
                .required("code"),
        )
        .build();
    let text = format!(
        "{}: {}",
        status.canonical_reason().unwrap_or("error"),
        codes.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
    );
    let mut response = ResponseBuilder::new()
        .description(text)
        .content("application/json", Content::new(Some(Schema::AllOf(schema))))
        .header("X-Request-Id", request_id());
    // Headers every variant of this status sets are described (and required); read from the
    // answer the table itself builds, so they cannot drift from it.
    let mut seen: BTreeMap<String, (Header, usize)> = BTreeMap::new();
    for e in errors {
        let res = e.error_response();
        for name in res.headers().keys().filter(|n| **n != header::CONTENT_TYPE) {
            let (name, h) = error_header(name);
            seen.entry(name).or_insert((h, 0)).1 += 1;
        }
    }
    for (name, (mut h, count)) in seen {
        if count < errors.len() {
            h.extensions = None;
        }
        response = response.header(name, h);
    }
    response.build()
}

/// The error responses of a route, one per status.
fn error_responses(route: &str) -> BTreeMap<String, RefOr<Response>> {
    let errors = errors_of(route);
    let mut by_status: BTreeMap<u16, Vec<&ApiError>> = BTreeMap::new();
    for e in &errors {
        by_status.entry(e.status_code().as_u16()).or_default().push(e);
    }
    by_status
        .into_iter()
        .map(|(status, errors)| {
            (status.to_string(), error_response(StatusCode::from_u16(status).expect("a status"), &errors).into())
        })
        .collect()
}

fn json_content(schema: &str) -> Content {
    Content::new(Some(Ref::from_schema_name(schema)))
}

/// A route's answers: `ok` as its 200 (every answer carries X-Request-Id) and the errors of
/// the table that reach it.
fn answers(route: &str, ok: ResponseBuilder) -> BTreeMap<String, RefOr<Response>> {
    let mut all = error_responses(route);
    all.insert("200".into(), ok.header("X-Request-Id", request_id()).build().into());
    all
}

/// The answers of `POST /api/convert`.
pub struct ConvertAnswers;

impl IntoResponses for ConvertAnswers {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let pdf = ObjectBuilder::new().schema_type(Type::String).format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)));
        let ok = ResponseBuilder::new()
            .description("The PDF.")
            .content("application/pdf", Content::new(Some(pdf)))
            .header("X-Credits-Used", credits("Credits this conversion consumed: max(1, ceil(bytes / 5 MiB))."))
            .header("X-Credits-Remaining", credits("Credits left in the current month, after this conversion."))
            .header("X-Credits-Limit", credits("The account's monthly allowance."))
            .header(
                "Content-Disposition",
                header(
                    "attachment, with the upload's file name, its extension replaced by .pdf (RFC 6266): an ASCII \
                     filename and, for a name that is not ASCII, filename* (RFC 8187); document.pdf when the part \
                     has none.",
                    string(Some("^attachment; filename=\"[^\"\\\\]*\\.pdf\"(; filename\\*=UTF-8''[!#$&+.^_`|~0-9A-Za-z%-]+)?$")),
                ),
            )
            .header("X-Conversion-Warnings", conversion_warnings());
        answers("/api/convert", ok)
    }
}

/// The answers of `GET /healthz`.
pub struct HealthAnswers;

impl IntoResponses for HealthAnswers {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let ok = ResponseBuilder::new().description("The process is alive.").content("application/json", json_content("Status"));
        answers("/healthz", ok)
    }
}

/// The answers of `GET /readyz`.
pub struct ReadyAnswers;

impl IntoResponses for ReadyAnswers {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let ok = ResponseBuilder::new().description("The database answers.").content("application/json", json_content("Status"));
        answers("/readyz", ok)
    }
}

/// The answers of `GET /metrics`.
pub struct MetricsAnswers;

impl IntoResponses for MetricsAnswers {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let ok = ResponseBuilder::new()
            .description(
                "Prometheus text: requests by route and status, the conversion latency histogram, \
                 render queue depth, credits debited, database pool and retried transactions.",
            )
            .content("text/plain", Content::new(Some(string(None))));
        answers("/metrics", ok)
    }
}

/// The answers of `GET /openapi.json`.
pub struct DescriptionAnswers;

impl IntoResponses for DescriptionAnswers {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let cache = || header("How long the description may be reused.", string(None));
        let etag = || header("The description's version; send it back in If-None-Match.", string(None));
        let ok = ResponseBuilder::new()
            .description("This description (OpenAPI 3.1).")
            .content("application/json", Content::new(Some(ObjectBuilder::new().schema_type(Type::Object))))
            .header("Cache-Control", cache())
            .header("ETag", etag());
        let unchanged = ResponseBuilder::new()
            .description("Not Modified: the If-None-Match ETag is current.")
            .header("Cache-Control", cache())
            .header("ETag", etag())
            .header("X-Request-Id", request_id())
            .build();
        let mut all = answers("/openapi.json", ok);
        all.insert("304".into(), unchanged.into());
        all
    }
}

/// Completes what the annotations cannot say: the bearer scheme, every `code` of the error
/// table on the error body, and the router's 404 and 405 answers as shared responses.
struct FromErrorTable;

impl Modify for FromErrorTable {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("An API key made with `docx2pdf keys create`: Authorization: Bearer <API_KEY>."))
                    .build(),
            ),
        );
        let codes: BTreeSet<&str> = ApiError::every().map(|e| e.code()).collect();
        if let Some(RefOr::T(Schema::Object(body))) = components.schemas.get_mut("ErrorBody") {
            body.properties.insert(
                "code".into(),
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(Some("The stable snake_case identifier clients switch on."))
                    .enum_values(Some(codes.iter().copied()))
                    .into(),
            );
        }
        for e in ApiError::every().filter(is_routing) {
            let name = match e {
                ApiError::NotFound(_) => "NotFound",
                _ => "MethodNotAllowed",
            };
            components.responses.insert(name.into(), error_response(e.status_code(), &[&e]).into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The form's `pdfa` values are written out for the schema; they must be the levels
    /// the parser takes, no more and no fewer.
    #[test]
    fn the_described_pdfa_values_are_the_levels_offered() {
        let doc: serde_json::Value = serde_json::from_str(&description().to_json().expect("json")).expect("parse");
        let described = &doc["components"]["schemas"]["PdfA"]["enum"];
        let offered: Vec<&str> = crate::pdf::PdfA::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(described, &serde_json::json!(offered));
    }
}
