//! One geometry per box shape, shared by every room of that shape while any holds it: a 19³
//! geometry (neighbours and Zobrist keys per point) is about 220 KB, the same for every room
//! (memory per room bounds how many rooms a server can hold).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, Weak};

use engine::{BoxSpec, Geometry, GeometryError};

static SHARED: LazyLock<Mutex<HashMap<BoxSpec, Weak<Geometry>>>> = LazyLock::new(Default::default);

/// The geometry of `spec`, the one other rooms of that shape hold if any does.
pub fn shared(spec: BoxSpec) -> Result<Arc<Geometry>, GeometryError> {
    // A poisoned lock only means a panic elsewhere while it was held; the map stays valid.
    let mut map = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(g) = map.get(&spec).and_then(Weak::upgrade) {
        return Ok(g);
    }
    let g = Arc::new(Geometry::from_spec(spec)?);
    map.retain(|_, w| w.strong_count() > 0);
    map.insert(spec, Arc::downgrade(&g));
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rooms_of_one_shape_share_one_geometry_while_any_holds_it() {
        // Shapes no other test plays on (tests run side by side in one process).
        let axis = |end| engine::Axis { start: 1, end };
        let spec = BoxSpec { x: axis(11), y: axis(3), z: axis(5) };
        let a = shared(spec).unwrap();
        let b = shared(spec).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        let other = shared(BoxSpec { x: axis(11), y: axis(5), z: axis(3) }).unwrap();
        assert!(!Arc::ptr_eq(&a, &other));
        drop((a, b));
        let again = shared(spec).unwrap();
        assert_eq!(Arc::strong_count(&again), 1, "made anew once no room held it");
    }
}
