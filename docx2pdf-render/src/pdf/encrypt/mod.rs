//! Password protection: the standard security handler of revision 6 with AES-256 (ISO
//! 32000-2 §7.6.4), applied to a finished PDF.

mod handler;
mod password;
mod rewrite;

pub use password::{PasswordError, Passwords};
pub(super) use rewrite::encrypt;
