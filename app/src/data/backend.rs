//! The two databases behind [`super::Db`]: SQLite (the embedded default) and PostgreSQL. One
//! data layer, one backend per database: every query is written once with `$1, $2, …`
//! placeholders (both drivers bind them by number) and runs on the concrete driver of the
//! backend in use through [`on!`], which expands its body once per backend, so each copy is
//! type-checked against its own driver (no `sqlx::Any`). Where the dialects differ, the body
//! names the difference through `dialect::…` (see [`sqlite`], [`postgres`]).
//!
//! Rows are read by column name through `Cols::col`, the same on both drivers.

use sqlx::{postgres::PgRow, sqlite::SqliteRow, Decode, Postgres, Sqlite, Type};

use crate::AppError;

/// A value of one backend or the other: pools, transactions and connections.
#[derive(Debug, Clone)]
pub enum Backend<S, P> {
    Sqlite(S),
    Postgres(P),
}

/// The pool every reader uses.
pub type Pool = Backend<sqlx::SqlitePool, sqlx::PgPool>;
/// A writing transaction (see [`super::write_tx`]).
pub type Tx = Backend<sqlx::Transaction<'static, Sqlite>, sqlx::Transaction<'static, Postgres>>;
/// A connection inside some transaction, for helpers that are handed one.
pub type Conn<'c> = Backend<&'c mut sqlx::SqliteConnection, &'c mut sqlx::PgConnection>;

/// Runs `$body` with `$x` bound to the backend's own value (a pool by reference, a
/// transaction or connection by `&mut`), and `dialect` naming that backend's SQL fragments.
/// Execute on a transaction or connection with `&mut **$x`.
macro_rules! on {
    ($e:expr, $x:ident => $body:expr) => {
        match $e {
            $crate::data::backend::Backend::Sqlite($x) => {
                #[allow(unused_imports)]
                use $crate::data::backend::sqlite as dialect;
                $body
            }
            $crate::data::backend::Backend::Postgres($x) => {
                #[allow(unused_imports)]
                use $crate::data::backend::postgres as dialect;
                $body
            }
        }
    };
}
pub(crate) use on;

/// SQLite's spelling of what the dialects spell differently.
pub mod sqlite {
    /// Text compared byte for byte (user names' own collation is caseless).
    pub const EXACT_COLLATION: &str = "BINARY";
    /// A listing to write again from the room's log: never written (the room closed before
    /// lists existed), or written before it had `readers` and `under_review` (a finished
    /// room's listing is otherwise only rewritten when its actor loads it).
    pub const STALE_LISTING: &str = "(listing IS NULL OR json_type(listing, '$.readers') IS NULL)";
    /// A room's first event (`body`) with its invitation digests blanked (003 §12.7).
    pub const WITHOUT_INVITATIONS: &str = "json_set(body, '$.invite_sha256', json('[\"\",\"\"]'))";
    /// A room listing's phase (`rooms.listing` is JSON text).
    pub const LISTING_PHASE: &str = "json_extract(r.listing, '$.phase')";
    /// True when the account bound as `$READER` is among the listing's approved readers.
    pub fn listing_reader(param: usize) -> String {
        format!("EXISTS (SELECT 1 FROM json_each(r.listing, '$.readers') j WHERE j.value = ${param})")
    }
    /// Row locks (none needed: a SQLite writer holds the whole database's write lock).
    pub const LOCK_FOR_UPDATE: &str = "";
    pub const LOCK_FOR_KEY_SHARE: &str = "";
}

/// PostgreSQL's spelling of the same.
pub mod postgres {
    pub const EXACT_COLLATION: &str = "\"C\"";
    pub const STALE_LISTING: &str = "(listing IS NULL OR (listing::jsonb -> 'readers') IS NULL)";
    pub const WITHOUT_INVITATIONS: &str = "jsonb_set(body::jsonb, '{invite_sha256}', '[\"\",\"\"]'::jsonb)::text";
    pub const LISTING_PHASE: &str = "(r.listing::jsonb ->> 'phase')";
    pub fn listing_reader(param: usize) -> String {
        format!(
            "EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(r.listing::jsonb -> 'readers', '[]'::jsonb)) j \
             WHERE j.value = to_jsonb(${param}::bigint))"
        )
    }
    /// Row locks, appended to a `SELECT` whose rows decide a write (read committed re-checks
    /// the `WHERE` on a row's newest version once its lock is had). `FOR KEY SHARE` only
    /// waits for a `FOR UPDATE` (a lease being taken), not for a renewal's `UPDATE`.
    pub const LOCK_FOR_UPDATE: &str = " FOR UPDATE";
    pub const LOCK_FOR_KEY_SHARE: &str = " FOR KEY SHARE";
}

impl Tx {
    /// The transaction's connection, for a helper that takes one.
    pub fn conn(&mut self) -> Conn<'_> {
        match self {
            Backend::Sqlite(t) => Backend::Sqlite(&mut **t),
            Backend::Postgres(t) => Backend::Postgres(&mut **t),
        }
    }

    pub async fn commit(self) -> Result<(), AppError> {
        on!(self, t => t.commit().await).map_err(super::internal)
    }
}

/// A row of whichever backend, for code that maps rows outside [`on!`].
pub type Row = Backend<SqliteRow, PgRow>;

impl Cols for Row {
    fn col<T: Column>(&self, name: &str) -> Result<T, AppError> {
        on!(self, r => r.col(name))
    }
}

/// Turns a backend's rows (alone, optional or in a list) into [`Row`]s.
pub trait Neutral {
    type Out;
    fn neutral(self) -> Self::Out;
}

impl Neutral for SqliteRow {
    type Out = Row;
    fn neutral(self) -> Row {
        Backend::Sqlite(self)
    }
}

impl Neutral for PgRow {
    type Out = Row;
    fn neutral(self) -> Row {
        Backend::Postgres(self)
    }
}

impl<T: Neutral> Neutral for Option<T> {
    type Out = Option<T::Out>;
    fn neutral(self) -> Self::Out {
        self.map(T::neutral)
    }
}

impl<T: Neutral> Neutral for Vec<T> {
    type Out = Vec<T::Out>;
    fn neutral(self) -> Self::Out {
        self.into_iter().map(T::neutral).collect()
    }
}

/// A backend's own connection as a [`Conn`] (e.g. a savepoint's).
pub trait AsConn {
    fn as_conn(&mut self) -> Conn<'_>;
}

impl AsConn for sqlx::SqliteConnection {
    fn as_conn(&mut self) -> Conn<'_> {
        Backend::Sqlite(self)
    }
}

impl AsConn for sqlx::PgConnection {
    fn as_conn(&mut self) -> Conn<'_> {
        Backend::Postgres(self)
    }
}

/// A column type both drivers decode (integers, text, their options…).
pub trait Column: Sized {
    fn from_sqlite(r: &SqliteRow, name: &str) -> Result<Self, sqlx::Error>;
    fn from_postgres(r: &PgRow, name: &str) -> Result<Self, sqlx::Error>;
}

impl<T> Column for T
where
    T: for<'r> Decode<'r, Sqlite> + Type<Sqlite> + for<'r> Decode<'r, Postgres> + Type<Postgres>,
{
    fn from_sqlite(r: &SqliteRow, name: &str) -> Result<Self, sqlx::Error> {
        sqlx::Row::try_get(r, name)
    }
    fn from_postgres(r: &PgRow, name: &str) -> Result<Self, sqlx::Error> {
        sqlx::Row::try_get(r, name)
    }
}

/// A row of either backend, read by column name: row mappers are written once.
pub trait Cols {
    fn col<T: Column>(&self, name: &str) -> Result<T, AppError>;

    /// A text column holding one of a wire enum's names (a role, an audit action): read through
    /// `FromStr`, as `text_column!` does for the enums defined here (sqlx's traits cannot be
    /// implemented for another crate's types). Written with `<&'static str>::from(value)`.
    fn named<T: std::str::FromStr>(&self, name: &str) -> Result<T, AppError> {
        let text: String = self.col(name)?;
        text.parse().map_err(|_| super::internal(sqlx::Error::Decode(format!("unknown {name}: {text}").into())))
    }
}

impl Cols for SqliteRow {
    fn col<T: Column>(&self, name: &str) -> Result<T, AppError> {
        T::from_sqlite(self, name).map_err(super::internal)
    }
}

impl Cols for PgRow {
    fn col<T: Column>(&self, name: &str) -> Result<T, AppError> {
        T::from_postgres(self, name).map_err(super::internal)
    }
}

/// Text columns holding one of a Rust enum's names (roles, audit actions, …): stored as
/// TEXT on both backends, read back through `FromStr`.
macro_rules! text_column {
    ($t:ty) => {
        impl sqlx::Type<sqlx::Sqlite> for $t {
            fn type_info() -> sqlx::sqlite::SqliteTypeInfo {
                <str as sqlx::Type<sqlx::Sqlite>>::type_info()
            }
            fn compatible(ty: &sqlx::sqlite::SqliteTypeInfo) -> bool {
                <str as sqlx::Type<sqlx::Sqlite>>::compatible(ty)
            }
        }
        impl sqlx::Type<sqlx::Postgres> for $t {
            fn type_info() -> sqlx::postgres::PgTypeInfo {
                <str as sqlx::Type<sqlx::Postgres>>::type_info()
            }
            fn compatible(ty: &sqlx::postgres::PgTypeInfo) -> bool {
                <str as sqlx::Type<sqlx::Postgres>>::compatible(ty)
            }
        }
        impl<'q> sqlx::Encode<'q, sqlx::Sqlite> for $t {
            fn encode_by_ref(
                &self,
                buf: &mut <sqlx::Sqlite as sqlx::Database>::ArgumentBuffer<'q>,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <&str as sqlx::Encode<'q, sqlx::Sqlite>>::encode(<&'static str>::from(*self), buf)
            }
        }
        impl<'q> sqlx::Encode<'q, sqlx::Postgres> for $t {
            fn encode_by_ref(
                &self,
                buf: &mut <sqlx::Postgres as sqlx::Database>::ArgumentBuffer<'q>,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <&str as sqlx::Encode<'q, sqlx::Postgres>>::encode(<&'static str>::from(*self), buf)
            }
        }
        impl<'r> sqlx::Decode<'r, sqlx::Sqlite> for $t {
            fn decode(value: sqlx::sqlite::SqliteValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                let text = <&str as sqlx::Decode<'r, sqlx::Sqlite>>::decode(value)?;
                text.parse::<$t>().map_err(|_| format!("unknown {}: {text}", stringify!($t)).into())
            }
        }
        impl<'r> sqlx::Decode<'r, sqlx::Postgres> for $t {
            fn decode(value: sqlx::postgres::PgValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                let text = <&str as sqlx::Decode<'r, sqlx::Postgres>>::decode(value)?;
                text.parse::<$t>().map_err(|_| format!("unknown {}: {text}", stringify!($t)).into())
            }
        }
    };
}

text_column!(crate::accounts::EndReason);
