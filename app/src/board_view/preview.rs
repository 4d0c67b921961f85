//! The 3D preview stone's colours (003 §2.4: the preview must read clearly for both colours
//! on every background), kept apart from the renderer so that a test on any build checks
//! their contrast. The check is a model: the unlit colours blended in sRGB over the
//! background; on screen the renderer's lights shade the spheres (lighter toward the sun,
//! darker at the rim), so the figures are those of the sphere's mid-tone.

/// The 3D view's background, as the renderer clears it.
pub const BACKGROUND: [u8; 3] = [11, 16, 32];
/// A yellow halo (the confirm button's colour) around every preview, and its opacity.
pub const HALO: [u8; 3] = [250, 204, 21];
pub const HALO_ALPHA: u8 = 120;
/// The stone inside the halo: a lighter black than a placed stone, so it is not lost in
/// the background, and a translucent white.
pub const BLACK: ([u8; 3], u8) = ([58, 58, 66], 200);
pub const WHITE: ([u8; 3], u8) = ([236, 236, 230], 150);

/// `fg` at `alpha` over `bg`, per channel in sRGB (as the framebuffer blends).
fn over(fg: [f64; 3], alpha: u8, bg: [f64; 3]) -> [f64; 3] {
    let a = f64::from(alpha) / 255.0;
    [0, 1, 2].map(|i| a * fg[i] + (1.0 - a) * bg[i])
}

fn rgb(c: [u8; 3]) -> [f64; 3] {
    c.map(f64::from)
}

/// WCAG 2 relative luminance of an sRGB colour given in 0–255.
fn luminance(c: [f64; 3]) -> f64 {
    let lin = |v: f64| {
        let v = v / 255.0;
        if v <= 0.040_45 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// WCAG 2 contrast ratio between two colours (1 to 21).
pub fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// What the eye sees of a preview: the halo's rim against the background, and the stone
/// seen through the halo's near face.
pub struct PreviewLook {
    pub rim: [f64; 3],
    pub stone: [f64; 3],
}

pub fn look((stone, alpha): ([u8; 3], u8)) -> PreviewLook {
    let rim = over(rgb(HALO), HALO_ALPHA, rgb(BACKGROUND));
    let inside = over(rgb(stone), alpha, rim);
    PreviewLook { rim, stone: over(rgb(HALO), HALO_ALPHA, inside) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_previews_stand_out_from_the_background() {
        let bg = rgb(BACKGROUND);
        for (name, colours) in [("black", BLACK), ("white", WHITE)] {
            let l = look(colours);
            // WCAG 1.4.11 asks 3:1 of the parts of a control needed to see it.
            let (rim, stone) = (contrast(l.rim, bg), contrast(l.stone, bg));
            assert!(rim >= 3.0, "{name}: the halo's rim against the background is {rim:.2}:1");
            assert!(stone >= 4.5, "{name}: the preview against the background is {stone:.2}:1");
        }
        // And the two colours stay apart from each other.
        let apart = contrast(look(BLACK).stone, look(WHITE).stone);
        assert!(apart >= 1.8, "black and white previews differ by {apart:.2}:1");
    }
}
