//! What an account may do. Shared by storage (`users.role`) and the wire (`UserView`), with
//! the same lowercase names in both.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Role {
    /// Holds rooms, rules on disputes, decides matches (003 §1.5, §3.6, §6.1).
    Admin,
    Player,
}

impl Role {
    pub fn is_admin(self) -> bool {
        self == Role::Admin
    }
}
