//! Star rating: a sample cellhost plugin written in Rust against the `cellhost-plugin` crate.
//!
//!     cargo build --release --manifest-path Plugins/RustRating/Cargo.toml
//!
//! One configuration type, com.cellhost.samples.rating: a row of `count` stars with `rating` of
//! them filled (halves allowed), a title, a tint and whether the value is shown as text; the
//! actions `rate(stars)` and `clear()`. It restyles itself per state (selected, highlighted,
//! disabled, a custom "favourite" state) unless the tint was set, and promises a pure restyle.

use cellhost_plugin::sys::{CELLHOST_FONT_REGULAR, CELLHOST_TEXT_STYLE_BODY};
use cellhost_plugin::*;

#[derive(Clone, PartialEq)]
struct Rating {
    count: i64,
    rating: f64,
    title: String,
    tint: Color,
    shows_value: bool,
    /// State styling, not a property: drawn through the host's grayscale transformer (disabled).
    grayscale: bool,
}

/// Property positions, as `Locks` numbers them.
const RATING: usize = 1;

const STAR: f64 = 20.0;
const GAP: f64 = 4.0;
const INSETS: Insets = Insets::new(11.0, 16.0, 11.0, 16.0);

fn fallback_tint() -> Color {
    Color::rgba(1.0, 0.8, 0.0, 1.0)
}

impl Rating {
    fn set_count(&mut self, count: i64) {
        self.count = count.clamp(1, 10);
        self.rating = self.rating.min(self.count as f64);
    }

    /// Half-star steps within 0…count; NaN keeps the old rating.
    fn set_rating(&mut self, rating: f64) {
        if rating.is_nan() {
            log(LogLevel::Warning, "rating: NaN is not a rating; kept the old one");
            return;
        }
        self.rating = ((rating * 2.0).round() / 2.0).clamp(0.0, self.count as f64);
    }
}

impl Configuration for Rating {
    const TYPE_ID: &'static str = "com.cellhost.samples.rating";
    const DISPLAY_NAME: &'static str = "Star rating";
    const PURE_RESTYLE: bool = true;
    type View = RatingView;

    fn properties() -> Vec<Property<Self>> {
        vec![
            Property::new("count", |c: &Rating| c.count, Some(Rating::set_count)),
            Property::new("rating", |c: &Rating| c.rating, Some(Rating::set_rating)),
            Property::string("title", |c| &c.title, Some(|c, v| c.title = v.to_string())),
            Property::new("tint", |c: &Rating| c.tint, Some(|c, v| c.tint = v)),
            Property::new("showsValue", |c: &Rating| c.shows_value, Some(|c, v| c.shows_value = v)),
        ]
    }

    fn actions() -> Vec<Action<Self>> {
        vec![
            Action::with_argument("rate", "stars", |c: &mut Rating, locks, stars: f64| {
                if !(0.0..=c.count as f64).contains(&stars) {
                    return Err(format!("rate(stars: {stars}) is outside 0…{}", c.count));
                }
                c.set_rating(stars);
                locks.lock(RATING);
                Ok(())
            }),
            Action::new("clear", |c: &mut Rating, locks| {
                c.rating = 0.0;
                locks.unlock(RATING);
                Ok(())
            }),
        ]
    }

    fn make_default(host: &Host) -> Self {
        Rating {
            count: 5,
            rating: 0.0,
            title: String::new(),
            tint: host.system_color(None, "systemYellow").unwrap_or_else(fallback_tint),
            shows_value: true,
            grayscale: false,
        }
    }

    /// Tint and transformer from the state alone (the layer puts a set tint back).
    fn updated_for_state(&self, state: &State, host: &Host) -> Self {
        let name = if state.custom_is_on("favourite") {
            "systemPink"
        } else if state.is_selected() {
            "systemOrange"
        } else {
            "systemYellow"
        };
        let mut tint = host.system_color(Some(state.traits()), name).unwrap_or_else(fallback_tint);
        if state.is_highlighted() {
            tint = tint.with_alpha(0.6);
        }
        Rating { tint, grayscale: state.is_disabled(), ..self.clone() }
    }
}

struct RatingView {
    config: Rating,
}

impl RatingView {
    fn title_height(&self, context: &Context, width: f64) -> f64 {
        if self.config.title.is_empty() {
            return 0.0;
        }
        let text = Text::line(&self.config.title, context.font(CELLHOST_TEXT_STYLE_BODY));
        context.measure(&text, Some(width.max(0.0))).size.height + 6.0
    }
}

impl ContentView for RatingView {
    type Configuration = Rating;

    fn make(initial: &Rating) -> Self {
        RatingView { config: initial.clone() }
    }

    fn set_configuration(&mut self, config: &Rating) {
        self.config = config.clone();
    }

    fn size_that_fits(&mut self, target: Size, context: &Context) -> Size {
        let width = target.width - INSETS.leading - INSETS.trailing;
        Size::new(target.width, INSETS.top + self.title_height(context, width) + STAR + INSETS.bottom)
    }

    fn draw(&mut self, bounds: Rect, context: &Context, canvas: &mut Canvas) {
        let c = &self.config;
        let area = bounds.inset_by(INSETS);
        let transformer = if c.grayscale { context.host().color_transformer("grayscale") } else { None };
        let tint = c.tint.transformed(transformer);
        let mut y = area.y;
        if !c.title.is_empty() {
            let text = Text::line(&c.title, context.font(CELLHOST_TEXT_STYLE_BODY));
            let height = context.measure(&text, Some(area.width.max(0.0))).size.height;
            let label = context.system_color("label", Color::rgba(0.0, 0.0, 0.0, 1.0));
            canvas.text(&text, label, Rect::new(area.x, y, area.width, height), Alignment::Natural);
            if c.shows_value {
                let value = format!("{} of {}", c.rating, c.count);
                let secondary = context.system_color("secondaryLabel", label);
                canvas.text(&Text::line(&value, text.font), secondary, Rect::new(area.x, y, area.width, height), Alignment::Right);
            }
            y += height + 6.0;
        }
        for index in 0..c.count {
            let frame = Rect::new(area.x + index as f64 * (STAR + GAP), y, STAR, STAR);
            let filled = (c.rating - index as f64).clamp(0.0, 1.0);
            canvas.symbol("star", frame, STAR, CELLHOST_FONT_REGULAR, tint.with_alpha(tint.alpha * 0.35));
            if filled > 0.0 {
                canvas.clipped(Rect::new(frame.x, frame.y, STAR * filled, STAR), 0.0, |canvas| {
                    canvas.symbol("star.fill", frame, STAR, CELLHOST_FONT_REGULAR, tint)
                });
            }
        }
    }
}

const PLUGIN_ID: &str = "com.cellhost.samples.rust";
const PLUGIN_NAME: &str = "Rust samples";
const PLUGIN_VERSION: &str = "1.0.0";
const PLUGIN_VENDOR: &str = "cellhost samples";
const PLUGIN_DESCRIPTION: &str = "A star rating with a title, written in Rust against the cellhost-plugin crate.";

cellhost_plugin::export_plugin!(
    Plugin::new(PLUGIN_ID, PLUGIN_NAME, PLUGIN_VERSION, PLUGIN_VENDOR)
        .description(PLUGIN_DESCRIPTION)
        .with_type::<Rating>()
);

// What `cellhost inspect --no-load` reads without running this library: the same strings.
cellhost_plugin::plugin_metadata!(Metadata::new(PLUGIN_ID, PLUGIN_NAME, PLUGIN_VERSION, PLUGIN_VENDOR)
    .description(PLUGIN_DESCRIPTION)
    .types(&[<Rating as Configuration>::TYPE_ID]));
