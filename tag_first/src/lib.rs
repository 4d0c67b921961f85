//! Reads an internally tagged enum (`{"tag": "variant", ..fields}`) with its tag first: the one
//! reader of the tagged enums a browser reads — `engine::GameResult`, the room's `Event`, the
//! settings' and the referee's enums, and the error tree (the answers' `{"error": code, ..}`,
//! the refusals' `{"code": ..}`, the problems' `{"kind": ..}`).
//!
//! Why not serde's derive: for an internally tagged enum it buffers the whole object into
//! serde's private `Content` and reads every variant again from that buffer, so each field
//! type (and everything inside it) is compiled a second time for the buffer. In the room's
//! WASM that was tens of KB; for the error tree, which any server function may answer with,
//! 290 KB of the first download's 1.7 MB. Here the tag is read first and then each field by
//! name. Serializing stays serde's derive, which writes the tag first.
//!
//! Two ways in, one reader per enum ([`TagFirst::read`], written by [`tag_first!`]):
//! - **streamed** ([`deserialize`]): the fields straight from the caller's reader. An object
//!   whose keys were reordered (a `serde_json::Value` map sorts them) is buffered as JSON and
//!   read again with the tag first, so any key order is accepted. For the enums read often
//!   and in bulk (events, settings).
//! - **by value** ([`from_map`], `tag_first!(by_value …)`): the object parsed into a JSON map
//!   first, the tag taken out, each field taken from the map by name and read from its
//!   `serde_json::Value` ([`TagFirst::read_map`]). A variant is then a few calls, compiled
//!   once whatever reader the caller used: for the error tree, where size matters more than
//!   speed (any server function may answer with any of its ~130 variants).
//!
//! The macro's match over the enum's strum discriminant (`…Code`) is exhaustive, so a new
//! variant, or a field left out, does not compile. Unknown fields are ignored (refused with
//! `deny_unknown_fields`, unit variants included), a missing `Option` field reads as `None`
//! and any other missing field is an error, as with serde's derive.

use std::{borrow::Cow, fmt, marker::PhantomData};

use serde::de::{self, DeserializeOwned, Deserializer, Error as _, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};

// The crates `tag_first!` names, so that it expands anywhere.
#[doc(hidden)]
pub use {serde as __serde, serde_json as __serde_json, strum as __strum};

/// An enum read by [`deserialize`].
pub trait TagFirst: Sized {
    /// The field that names the variant.
    const TAG: &'static str;
    /// The variants' names on the wire.
    const VARIANTS: &'static [&'static str];
    /// The variants (strum's discriminant enum, parsed from the tag).
    type Code: std::str::FromStr;
    /// The variant `code` with its fields from the rest of `map`; a key that is none of the
    /// variant's fields goes to `siblings`.
    fn read<'de, A: MapAccess<'de>, S: Siblings<'de>>(
        code: Self::Code,
        map: &mut A,
        siblings: &mut S,
    ) -> Result<Self, A::Error>;
    /// The variant `code` with its fields taken from `map` by name ([`from_map`]); keys that
    /// are none of its fields are ignored, even for `deny_unknown_fields` enums (which are read
    /// streamed: for them this is never called, and the linker drops it).
    fn read_map(code: Self::Code, map: &mut Map<String, Value>) -> Result<Self, serde_json::Error>;
}

/// Fields beside a flattened tag-first enum in the same object (`wire`'s `ResultView` and its
/// `score`).
pub trait Siblings<'de> {
    /// Reads `key`'s value when it is one of these fields; false leaves it unread.
    fn read<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error>;
}

/// No fields beside: unknown keys are ignored.
impl<'de> Siblings<'de> for () {
    fn read<A: MapAccess<'de>>(&mut self, _: &str, _: &mut A) -> Result<bool, A::Error> {
        Ok(false)
    }
}

/// What [`read`] found.
pub enum Read<T> {
    /// Read with its tag first.
    Done(T),
    /// The tag was not the first key: the object as JSON text with the tag moved first, for
    /// the caller to read again.
    Reordered(String),
}

/// `Deserialize` for a [`TagFirst`] enum.
pub fn deserialize<'de, D: Deserializer<'de>, T: TagFirst + DeserializeOwned>(d: D) -> Result<T, D::Error> {
    match read::<D, T, ()>(d, ())?.0 {
        Read::Done(t) => Ok(t),
        Read::Reordered(text) => reread(&text),
    }
}

/// Reads again an object that [`read`] gave back with its tag moved first. Its error has no
/// position in the rewritten text (which is not the caller's: `serde_path_to_error` and the
/// JSON reader around this one say where the object is).
pub fn reread<T: DeserializeOwned, E: de::Error>(text: &str) -> Result<T, E> {
    serde_json::from_slice(text.as_bytes()).map_err(reread_error)
}

fn reread_error<E: de::Error>(e: serde_json::Error) -> E {
    let text = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    E::custom(text.strip_suffix(&position).unwrap_or(&text))
}

/// Reads a [`TagFirst`] enum's object, handing the keys it does not know to `siblings`.
pub fn read<'de, D: Deserializer<'de>, T: TagFirst, S: Siblings<'de>>(
    d: D,
    siblings: S,
) -> Result<(Read<T>, S), D::Error> {
    d.deserialize_map(TagFirstVisitor(siblings, PhantomData))
}

struct TagFirstVisitor<T, S>(S, PhantomData<T>);

impl<'de, T: TagFirst, S: Siblings<'de>> Visitor<'de> for TagFirstVisitor<T, S> {
    type Value = (Read<T>, S);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object with \"{}\"", T::TAG)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut siblings = self.0;
        let Some(first) = map.next_key::<Key>()? else { return Err(A::Error::missing_field(T::TAG)) };
        if first.0 == T::TAG {
            let tag = map.next_value::<Key>()?.0;
            let code = tag.parse().map_err(|_| A::Error::unknown_variant(&tag, T::VARIANTS))?;
            return Ok((Read::Done(T::read(code, &mut map, &mut siblings)?), siblings));
        }
        // Buffered as JSON values, then written out with the tag first.
        let mut rest = vec![(first.0.into_owned(), map.next_value::<serde_json::Value>()?)];
        while let Some((k, v)) = map.next_entry::<Key, serde_json::Value>()? {
            rest.push((k.0.into_owned(), v));
        }
        let at = rest.iter().position(|(k, _)| k == T::TAG).ok_or_else(|| A::Error::missing_field(T::TAG))?;
        let tag = rest.remove(at);
        let mut text = String::from("{");
        for (i, (k, v)) in std::iter::once(tag).chain(rest).enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&serde_json::Value::String(k).to_string());
            text.push(':');
            text.push_str(&v.to_string());
        }
        text.push('}');
        Ok((Read::Reordered(text), siblings))
    }
}

/// A key or tag, borrowed from the input when it can be.
pub struct Key<'de>(pub Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// Reads a field's value into its slot; a field given twice is an error.
pub fn field<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
    slot: &mut Option<T>,
    name: &'static str,
    map: &mut A,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(A::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// Skips the value of a key that no field takes.
pub fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<IgnoredAny>().map(|_| ())
}

/// A key that no field of the variant takes: refused with `deny` (serde's
/// `deny_unknown_fields`, here for unit variants too, which serde's derive let through),
/// skipped without.
pub fn unknown<'de, A: MapAccess<'de>>(
    deny: bool,
    key: &str,
    fields: &'static [&'static str],
    map: &mut A,
) -> Result<(), A::Error> {
    if deny {
        Err(A::Error::unknown_field(key, fields))
    } else {
        skip(map)
    }
}

/// A field that was not given: `None` for an `Option`, an error naming it for anything else
/// (serde's derive does the same).
pub fn missing<'de, T: Deserialize<'de>, E: de::Error>(name: &'static str) -> Result<T, E> {
    T::deserialize(Missing(name, PhantomData))
}

struct Missing<E>(&'static str, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Missing<E> {
    type Error = E;
    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// Reads `T` from an object already parsed into a JSON map (see the crate's "by value").
pub fn from_map<T: TagFirst>(mut map: Map<String, Value>) -> Result<T, serde_json::Error> {
    let tag = match map.remove(T::TAG) {
        Some(Value::String(tag)) => tag,
        Some(other) => return Err(serde_json::Error::custom(format_args!("{:?} is {other}, not a string", T::TAG))),
        None => return Err(serde_json::Error::missing_field(T::TAG)),
    };
    let code = tag.parse().map_err(|_| serde_json::Error::unknown_variant(&tag, T::VARIANTS))?;
    T::read_map(code, &mut map)
}

/// `Deserialize` through [`from_map`]; a refusal names the type and the tag's value.
pub fn deserialize_by_value<'de, D: Deserializer<'de>, T: TagFirst>(d: D, what: &str) -> Result<T, D::Error> {
    let map = Map::<String, Value>::deserialize(d)?;
    let code = map.get(T::TAG).and_then(Value::as_str).unwrap_or("").to_owned();
    from_map(map)
        .map_err(|e| D::Error::custom(format_args!("not a {what}: {:?} {code:?} with these fields ({e})", T::TAG)))
}

/// A field of a variant read by value: its value taken out of the map, or, when absent, what
/// [`missing`] makes of it (`None` for an `Option`).
pub fn take<T: DeserializeOwned>(map: &mut Map<String, Value>, name: &'static str) -> Result<T, serde_json::Error> {
    match map.remove(name) {
        Some(v) => T::deserialize(v),
        None => missing(name),
    }
}

/// Implements [`TagFirst`] and `Deserialize` for an internally tagged enum:
/// `tag_first!(Enum, EnumCode, "tag"; Unit, Struct { field, defaulted = expr }, …)`, each
/// variant with every field named (`= expr`: the value when the field is absent, for
/// `#[serde(default …)]`). `EnumCode` is the enum's strum discriminant, parsed from the tag
/// with `EnumString` and listing the names with `VariantNames`. Before the enum's name:
/// `deny_unknown_fields` refuses unknown fields; `by_value` reads through [`from_map`];
/// `reader_only` writes no `Deserialize` (a type whose own reads something else first, then
/// calls [`from_map`]). After the variants, `; skip A, B` names variants never sent under the
/// tag: their codes are refused.
#[macro_export]
macro_rules! tag_first {
    (deny_unknown_fields $($rest:tt)*) => { $crate::tag_first!(@impl true, stream; $($rest)*); };
    (by_value $($rest:tt)*) => { $crate::tag_first!(@impl false, by_value; $($rest)*); };
    (reader_only $($rest:tt)*) => { $crate::tag_first!(@impl false, reader_only; $($rest)*); };
    (@impl $deny:literal, $mode:ident; $t:ident, $code:ident, $tag:literal;
     $($v:ident $({ $($field:ident $(= $default:expr)?),* $(,)? })?),* $(,)?
     $(; skip $($skip:ident),* $(,)?)?) => {
        impl $crate::TagFirst for $t {
            const TAG: &'static str = $tag;
            const VARIANTS: &'static [&'static str] = <$code as $crate::__strum::VariantNames>::VARIANTS;
            type Code = $code;
            fn read<'de, A: $crate::__serde::de::MapAccess<'de>, S: $crate::Siblings<'de>>(
                code: $code,
                map: &mut A,
                siblings: &mut S,
            ) -> ::core::result::Result<Self, A::Error> {
                ::core::result::Result::Ok(match code {
                    $($code::$v => {
                        $($(let mut $field = ::core::option::Option::None;)*)?
                        while let ::core::option::Option::Some(key) = map.next_key::<$crate::Key>()? {
                            match key.0.as_ref() {
                                $($(stringify!($field) => $crate::field(&mut $field, stringify!($field), map)?,)*)?
                                // The tag again: serde's derive refuses it too.
                                $tag => return ::core::result::Result::Err(<A::Error as $crate::__serde::de::Error>::duplicate_field($tag)),
                                other => {
                                    if !siblings.read(other, map)? {
                                        $crate::unknown($deny, other, &[$($(stringify!($field)),*)?], map)?;
                                    }
                                }
                            }
                        }
                        $t::$v $({ $($field: match $field {
                            ::core::option::Option::Some(v) => v,
                            ::core::option::Option::None => $crate::tag_first!(@missing A, $field $(, $default)?),
                        }),* })?
                    })*
                    $($($code::$skip => return ::core::result::Result::Err(
                        <A::Error as $crate::__serde::de::Error>::custom(concat!("no ", stringify!($t), " is sent as ", stringify!($skip)))
                    ),)*)?
                })
            }
            fn read_map(
                code: $code,
                map: &mut $crate::__serde_json::Map<::std::string::String, $crate::__serde_json::Value>,
            ) -> ::core::result::Result<Self, $crate::__serde_json::Error> {
                let _ = &map;
                ::core::result::Result::Ok(match code {
                    $($code::$v => $t::$v $({ $($field: $crate::tag_first!(@take map, $field $(, $default)?)),* })?,)*
                    $($($code::$skip => return ::core::result::Result::Err(
                        <$crate::__serde_json::Error as $crate::__serde::de::Error>::custom(concat!("no ", stringify!($t), " is sent as ", stringify!($skip)))
                    ),)*)?
                })
            }
        }
        $crate::tag_first!(@deserialize $mode, $t);
    };
    (@deserialize stream, $t:ident) => {
        impl<'de> $crate::__serde::Deserialize<'de> for $t {
            fn deserialize<D: $crate::__serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                $crate::deserialize(d)
            }
        }
    };
    (@deserialize by_value, $t:ident) => {
        impl<'de> $crate::__serde::Deserialize<'de> for $t {
            fn deserialize<D: $crate::__serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                $crate::deserialize_by_value(d, stringify!($t))
            }
        }
    };
    (@deserialize reader_only, $t:ident) => {};
    (@take $map:ident, $field:ident) => { $crate::take($map, stringify!($field))? };
    (@take $map:ident, $field:ident, $default:expr) => {
        match $map.remove(stringify!($field)) {
            ::core::option::Option::Some(v) => <_ as $crate::__serde::Deserialize>::deserialize(v)?,
            ::core::option::Option::None => $default,
        }
    };
    (@missing $a:ident, $field:ident) => { $crate::missing::<_, $a::Error>(stringify!($field))? };
    (@missing $a:ident, $field:ident, $default:expr) => { $default };
    ($t:ident, $($rest:tt)*) => { $crate::tag_first!(@impl false, stream; $t, $($rest)*); };
}

#[cfg(test)]
mod tests;
