//! The WASM module's exports, a plain C ABI (no wasm-bindgen), for the few lines of glue in
//! the JavaScript program:
//!
//! ```js
//! const req = new TextEncoder().encode(JSON.stringify(request));
//! const ptr = exports.alloc(req.length);
//! new Uint8Array(exports.memory.buffer, ptr, req.length).set(req);
//! const out = exports.choose(ptr, req.length);          // frees the request
//! const len = new DataView(exports.memory.buffer).getUint32(out, true);
//! const answer = JSON.parse(new TextDecoder().decode(new Uint8Array(exports.memory.buffer, out + 4, len)));
//! exports.dealloc(out, len + 4);
//! ```
//!
//! The answer buffer is a little-endian `u32` byte length followed by that many bytes of
//! UTF-8 JSON (see the crate documentation).

/// A buffer of `len` bytes (zeroed) for the caller to fill; free it with [`dealloc`] or hand
/// it to [`choose`], which frees it.
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast::<u8>()
}

/// Frees a buffer from [`alloc`] or an answer of [`choose`] (then `len` is its length + 4).
///
/// # Safety
/// `ptr` and `len` must be exactly those of one buffer this module handed out and that was
/// not freed yet.
#[no_mangle]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    // SAFETY: by the contract above, `ptr..ptr+len` is a live `Box<[u8]>` of length `len`
    // that this module leaked with `Box::into_raw`; rebuilding the box frees it once.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// Ranks the moves of the request in `ptr..ptr+len` (UTF-8 JSON; freed here) and returns
/// the answer buffer: a little-endian `u32` length, then the JSON. Free it with
/// `dealloc(answer, length + 4)`.
///
/// # Safety
/// `ptr` and `len` must be exactly those of a buffer from [`alloc`] that was not freed yet.
#[no_mangle]
pub unsafe extern "C" fn choose(ptr: *mut u8, len: usize) -> *mut u8 {
    // SAFETY: by the contract above, `ptr..ptr+len` is a live `Box<[u8]>` from `alloc`; we
    // take it back (and free it at the end of this function).
    let request = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) };
    let answer = match std::str::from_utf8(&request) {
        Ok(text) => crate::choose_json(text),
        Err(e) => crate::ParticipantError::Syntax { why: format!("not UTF-8: {e}") }.to_json().to_string(),
    };
    framed(answer.as_bytes())
}

/// `bytes` behind their little-endian `u32` length, leaked for the caller.
fn framed(bytes: &[u8]) -> *mut u8 {
    // Answers are far below 4 GiB (a few hundred bytes per ranked move).
    let n = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    let mut out = Vec::with_capacity(bytes.len() + 4);
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&bytes[..n as usize]);
    Box::into_raw(out.into_boxed_slice()).cast::<u8>()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The round trip the JavaScript glue makes, natively.
    #[test]
    fn a_request_through_the_exports() {
        let text = r#"{"board":{"x":{"start":1,"end":5},"y":{"start":1,"end":5},"z":{"start":1,"end":1}},
            "stones":[],"to_move":"black","weights":[0,0,0,0,0,0,1,0],"limit":3}"#;
        let ptr = alloc(text.len());
        // SAFETY: `ptr` is a fresh buffer of `text.len()` bytes from `alloc`.
        unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), ptr, text.len()) };
        // SAFETY: `ptr`/`len` are the buffer just allocated; `choose` frees it.
        let out = unsafe { choose(ptr, text.len()) };
        // SAFETY: `out` starts with the 4-byte length of the JSON that follows it.
        let (len, json) = unsafe {
            let len = u32::from_le_bytes(std::ptr::read(out.cast::<[u8; 4]>())) as usize;
            (len, std::str::from_utf8(std::slice::from_raw_parts(out.add(4), len)).unwrap().to_string())
        };
        // SAFETY: `out` is the answer buffer, `len + 4` bytes long, not freed yet.
        unsafe { dealloc(out, len + 4) };
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["candidates"], 25, "{v}");
        let moves = v["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 3);
        // Surface distance alone: the centre (two lines in from every edge of 5×5) is best.
        assert_eq!(moves[0]["at"], serde_json::json!({"x": 3, "y": 3, "z": 1}), "{v}");
    }
}
