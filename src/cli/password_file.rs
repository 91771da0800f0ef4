//! `convert --password-file FILE`: the open password of a protected DOCX, read from a file
//! (or `-`, standard input) so that it never appears in the process list.

use std::io::Read;
use std::path::Path;

use docx2pdf_render::docx::Password;

use super::CliError;

/// The file's first line, without its line ending; the rest is ignored.
pub fn read(path: &Path) -> Result<Password, CliError> {
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|source| CliError::Read { path: path.to_owned(), source })?;
    let text = String::from_utf8(bytes).map_err(|_| CliError::Usage(format!("the password file {} is not UTF-8 text", path.display())))?;
    let line = text.split('\n').next().unwrap_or_default();
    let password = Password::new(line.strip_suffix('\r').unwrap_or(line));
    let mut text = text;
    // SAFETY: zero bytes keep the string valid UTF-8; the copy is wiped before it is freed.
    for b in unsafe { text.as_bytes_mut() } {
        unsafe { std::ptr::write_volatile(b, 0) };
    }
    Ok(password)
}
