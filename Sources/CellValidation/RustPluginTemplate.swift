/// The Rust project of `cellhost new`: a cdylib crate depending on the `cellhost-plugin` crate
/// (SDK/Rust) by the absolute path of the source tree the tool was built from, so
/// `cargo build --release --offline` works with no registry and no install.
enum RustPluginTemplate {
    static func files(for project: PluginProject) -> [PluginProject.File] {
        [
            .init(path: "Cargo.toml", text: manifest(project)),
            .init(path: "src/lib.rs", text: source(project.name)),
            .init(path: ".gitignore", text: "/target\n"),
        ]
    }

    static func manifest(_ project: PluginProject) -> String {
        """
        [package]
        name = "\(project.name.kebab)"
        version = "0.1.0"
        edition = "2021"
        rust-version = "1.77"
        publish = false

        [lib]
        name = "\(project.name.snake)"
        crate-type = ["cdylib"]

        [dependencies]
        # The SDK of the cellhost source tree that generated this project; from its own repository
        # a plugin uses `cellhost-plugin = { git = "https://…/cellhost", tag = "…" }`.
        cellhost-plugin = { path = "\(project.sdkRoot)/SDK/Rust" }

        """
    }

    static func source(_ name: PluginProjectName) -> String {
        let type = name.upperCamel
        return """
            //! \(name.title): a cellhost plugin in Rust, written by `cellhost new`.
            //!
            //! One configuration type, \(name.typeIdentifier): a title, a tint and a count, drawn as
            //! a row with the count in a badge of the tint. The action `increment(by)` adds to the
            //! count. The tint follows the state (blue, green when selected, grey when disabled,
            //! dimmed while highlighted) until the tint is set, which locks it.

            use cellhost_plugin::sys::{CELLHOST_TEXT_STYLE_BODY, CELLHOST_TEXT_STYLE_FOOTNOTE};
            use cellhost_plugin::*;

            #[derive(Clone, PartialEq)]
            struct \(type) {
                title: String,
                tint: Color,
                count: i64,
            }

            /// What the tint is when the host names no such colour: a constant, so the restyle
            /// depends on the state alone (`PURE_RESTYLE`).
            const FALLBACK_TINT: Color = Color::rgba(0.0, 0.48, 1.0, 1.0);

            fn tint_for(state: Option<&State>, host: &Host) -> Color {
                let name = match state {
                    Some(state) if state.is_disabled() => "systemGray",
                    Some(state) if state.is_selected() => "systemGreen",
                    _ => "systemBlue",
                };
                let tint = host.system_color(state.map(|state| state.traits()), name).unwrap_or(FALLBACK_TINT);
                match state {
                    Some(state) if state.is_highlighted() => tint.with_alpha(tint.alpha * 0.6),
                    _ => tint,
                }
            }

            impl Configuration for \(type) {
                const TYPE_ID: &'static str = "\(name.typeIdentifier)";
                const DISPLAY_NAME: &'static str = "\(name.title)";
                const PURE_RESTYLE: bool = true;
                type View = \(type)View;

                fn properties() -> Vec<Property<Self>> {
                    vec![
                        Property::string("title", |c| &c.title, Some(|c, v| c.title = v.to_string())),
                        Property::new("tint", |c: &\(type)| c.tint, Some(|c, v| c.tint = v)),
                        Property::new("count", |c: &\(type)| c.count, Some(|c, v| c.count = v)),
                    ]
                }

                fn actions() -> Vec<Action<Self>> {
                    vec![Action::with_argument("increment", "by", |c: &mut \(type), _locks, by: i64| {
                        match c.count.checked_add(by) {
                            Some(count) if by > 0 => {
                                c.count = count;
                                Ok(())
                            }
                            _ => Err(format!("increment(by: {by}) needs a positive step that keeps the count in range")),
                        }
                    })]
                }

                fn make_default(host: &Host) -> Self {
                    \(type) { title: "\(name.title)".to_string(), tint: tint_for(None, host), count: 0 }
                }

                /// The tint from the state alone; the layer puts a set (locked) tint back.
                fn updated_for_state(&self, state: &State, host: &Host) -> Self {
                    \(type) { tint: tint_for(Some(state), host), ..self.clone() }
                }
            }

            struct \(type)View {
                config: \(type),
            }

            impl \(type)View {
                /// The badge's text and size: the count on a capsule of the tint.
                fn badge(&self, context: &Context) -> (String, Font, Size) {
                    let text = if self.config.count > 99 { "99+".to_string() } else { self.config.count.to_string() };
                    let font = context.font(CELLHOST_TEXT_STYLE_FOOTNOTE);
                    let measured = context.measure(&Text::line(&text, font), None).size;
                    let height = measured.height + 4.0;
                    (text, font, Size::new((measured.width + 12.0).max(height), height))
                }

                fn title_height(&self, context: &Context, width: f64) -> f64 {
                    let text = Text::line(&self.config.title, context.font(CELLHOST_TEXT_STYLE_BODY));
                    context.measure(&text, Some(width.max(0.0))).size.height
                }
            }

            impl ContentView for \(type)View {
                type Configuration = \(type);

                fn make(initial: &\(type)) -> Self {
                    \(type)View { config: initial.clone() }
                }

                fn set_configuration(&mut self, config: &\(type)) {
                    self.config = config.clone();
                }

                fn size_that_fits(&mut self, target: Size, context: &Context) -> Size {
                    let margins = context.host().default_layout_margins(Some(context.traits()));
                    let (_, _, badge) = self.badge(context);
                    let width = target.width - margins.leading - margins.trailing - badge.width - 8.0;
                    let content = self.title_height(context, width).max(badge.height);
                    Size::new(target.width, margins.top + content + margins.bottom)
                }

                fn draw(&mut self, bounds: Rect, context: &Context, canvas: &mut Canvas) {
                    let margins = context.host().default_layout_margins(Some(context.traits()));
                    let (text, font, badge) = self.badge(context);
                    let width = bounds.width - margins.leading - margins.trailing - badge.width - 8.0;
                    let height = self.title_height(context, width);
                    let label = context.system_color("label", Color::rgba(0.0, 0.0, 0.0, 1.0));
                    let title = Text::line(&self.config.title, context.font(CELLHOST_TEXT_STYLE_BODY));
                    let frame = Rect::new(bounds.x + margins.leading, bounds.y + (bounds.height - height) / 2.0, width, height);
                    canvas.text(&title, label, frame, Alignment::Natural);

                    let frame = Rect::new(bounds.x + bounds.width - margins.trailing - badge.width,
                                          bounds.y + (bounds.height - badge.height) / 2.0, badge.width, badge.height);
                    canvas.rounded_rect(frame, badge.height / 2.0, self.config.tint);
                    let white = Color::rgba(1.0, 1.0, 1.0, 1.0);
                    let inner = Rect::new(frame.x, frame.y + 2.0, frame.width, frame.height - 4.0);
                    canvas.text(&Text::line(&text, font), white, inner, Alignment::Center);
                }
            }

            cellhost_plugin::export_plugin!(
                Plugin::new("\(name.pluginIdentifier)", "\(name.title)", "0.1.0", "Example")
                    .description("A row with a title and a count badge, written in Rust.")
                    .with_type::<\(type)>()
            );

            // The same strings again, in an ELF section: `cellhost inspect --no-load` reads them
            // without running this library. `cellhost validate` checks that they agree.
            cellhost_plugin::plugin_metadata!(
                Metadata::new("\(name.pluginIdentifier)", "\(name.title)", "0.1.0", "Example")
                    .description("A row with a title and a count badge, written in Rust.")
                    .types(&[<\(type) as Configuration>::TYPE_ID])
            );

            """
    }
}
