//! The column shapes the migrations share: ids, integers and text, all NOT NULL.

use sea_orm_migration::prelude::*;

/// A 64-bit auto-increment primary key.
pub fn id<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).big_integer().not_null().auto_increment().primary_key().to_owned()
}

/// A 64-bit integer (ids of other rows, counts, Unix milliseconds).
pub fn big<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).big_integer().not_null().to_owned()
}

/// A string.
pub fn text<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).string().not_null().to_owned()
}
