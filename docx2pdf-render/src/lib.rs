//! A native DOCX-to-PDF renderer that lays documents out as Microsoft Word prints them.
//!
//! The pipeline runs one way: [`docx`] reads the package into a document model (with
//! [`template`] filling content controls and merge fields from data as it reads),
//! [`resolve`] applies styles, numbering and fields, [`layout`] sets lines, tables and
//! pages with the fonts Word would use (or metric-compatible stand-ins) and produces
//! [`frame`]s, and [`pdf`] writes them as tagged PDF (PDF/UA and PDF/A on request). The
//! leaves below all of them hold the units, the time and memory limits, warnings and
//! languages.
//!
//! ```
//! use docx2pdf_render::{convert, Options};
//!
//! # fn docx() -> Vec<u8> {
//! #     use std::io::Write;
//! #     let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
//! #     let parts = [
//! #         ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#),
//! #         ("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#),
//! #         ("word/document.xml", r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello, world.</w:t></w:r></w:p></w:body></w:document>"#),
//! #     ];
//! #     for (name, xml) in parts {
//! #         zip.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
//! #         zip.write_all(xml.as_bytes()).unwrap();
//! #     }
//! #     zip.finish().unwrap().into_inner()
//! # }
//! // A DOCX from a file, an upload or, here, built in memory.
//! let docx: Vec<u8> = docx();
//! let converted = convert(&docx, &Options::default()).expect("a PDF");
//! assert!(converted.pdf.starts_with(b"%PDF-"));
//! assert_eq!(converted.pages, 1);
//! for warning in &converted.warnings {
//!     eprintln!("{warning}");
//! }
//! ```

#![warn(missing_docs)]

pub mod bytes;
pub mod changes;
pub mod deadline;
pub mod docx;
pub mod error;
pub mod fast_map;
pub mod frame;
pub mod lang;
pub mod metafile;
pub mod layout;
pub mod memory;
pub mod password;
pub mod pdf;
pub mod pipeline;
pub mod release;
pub mod resolve;
pub mod template;
pub mod units;
pub mod warning;

mod options;

pub use deadline::{Deadline, Limit, TimedOut};
pub use docx::PackageLimits;
pub use error::{RenderError as Error, RenderError, RenderErrorKind};
pub use layout::FontBook;
pub use options::{convert, Options};
pub use pdf::{PdfA, PdfOptions};
pub use pipeline::{convert_with, Converted, Renderer};
pub use release::Release;
pub use template::{TemplateData, TemplateError};
pub use warning::Warning;
