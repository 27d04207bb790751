/// A cell or a header/footer view: it holds content and background configurations, builds its
/// configuration state, and runs UIKit's update cycle (UIKIT.md §6). One class serves both;
/// `Cell` and `HeaderFooterView` differ only in their state type and defaults.
///
/// `updateConfiguration(using:)`, UIKit's override point, is the stored closure
/// `updateConfigurationOverride`: cells are final (plugin and built-in cells are the same class,
/// and subclassing cannot cross the plugin boundary), so code customises a cell by value.
///
/// It keeps what UIKit's cell keeps: configurations, state inputs, the automatic-update flags,
/// the hooks, the content view, the pending-update bookkeeping and the last pass's record. What
/// only saves work sits in two named parts: `RestyleReuse` (restyles and applications a pass
/// can skip) and `DrawingCache` (the last height and recording).
///
/// The methods every pass runs are specialised for the two state types and exported, so the
/// engine (another module) calls code without per-call generic metadata lookups.
/// Event-path stored properties are `@exclusivity(unchecked)`: one thread owns it, their accesses never overlap.
public final class ConfigurableView<State: ConfigurationState & Hashable> {
    public let role: ConfigurableViewRole
    /// The list appearance the view sits in; it picks the default configurations and the list
    /// environment trait. Fixed for the view's life, as a cell belongs to one list.
    public let appearance: ListAppearance

    /// The state inputs (flags, traits, custom states). Changing any requests an update.
    @exclusivity(unchecked) private var inputs: State

    // MARK: Configurations

    private var storedContent: (any ContentConfiguration)? { hasContent ? contentSlot : nil }
    /// Where the content configuration is kept: a pass reads and restyles it in place there. An
    /// optional existential is copied whole each time it is unwrapped (`if let`, `!`).
    @exclusivity(unchecked) private var contentSlot: any ContentConfiguration = NoContent()
    @exclusivity(unchecked) private var hasContent = false
    /// What lets a pass skip restyling and re-applying the content; starts afresh with each set.
    let restyleReuse = RestyleReuse()
    @exclusivity(unchecked) private var storedBackground: BackgroundConfiguration?
    @exclusivity(unchecked) private var storedBackgroundColor: Color?
    @exclusivity(unchecked) private var isRunningHooks = false

    /// Setting it applies `updated(for: configurationState)` first when automatic updates are on
    /// (as UIKit does, so a configuration set on a selected cell looks selected); the content view
    /// takes it in the next pass, which setting requests.
    public var contentConfiguration: (any ContentConfiguration)? {
        get { storedContent }
        set {
            keepAppliedConfigurations()
            let restyles = automaticallyUpdatesContentConfiguration
            setContent(restyles ? newValue?.updated(for: inputs) : newValue, restyledFor: restyles ? inputs.cellState : nil)
            if !isRunningHooks { requestUpdate() }
        }
    }

    /// The content configuration's `typeIdentifier`, read once per value set: traces name it
    /// after every pass, and asking a large configuration through its existential copies it.
    public var contentTypeIdentifier: String? {
        if let read = restyleReuse.typeIdentifier { return read }
        let read = hasContent ? contentSlot.typeIdentifier : nil
        restyleReuse.typeIdentifier = .some(read)
        return read
    }

    /// Places a set value (nil: none), restyled for `state` when it was.
    private func setContent(_ value: (any ContentConfiguration)?, restyledFor state: CellConfigurationState?) {
        if let value {
            contentSlot = value
            hasContent = true
        } else {
            contentSlot = NoContent()
            hasContent = false
        }
        restyleReuse.valueWasSet(contentSlot, hasContent: hasContent, restyledFor: state)
    }

    /// Mutually exclusive with `backgroundColor`: setting one clears the other.
    public var backgroundConfiguration: BackgroundConfiguration? {
        get { storedBackground }
        set {
            keepAppliedConfigurations()
            storedBackground = automaticallyUpdatesBackgroundConfiguration ? newValue?.updated(for: inputs) : newValue
            if newValue != nil { storedBackgroundColor = nil }
            if !isRunningHooks { requestUpdate() }
        }
    }

    /// A plain fill instead of a background configuration (UIKit's `backgroundColor`); setting
    /// it removes the background configuration.
    public var backgroundColor: Color? {
        get { storedBackgroundColor }
        set {
            keepAppliedConfigurations()
            storedBackgroundColor = newValue
            if newValue != nil { storedBackground = nil }
            if !isRunningHooks { requestUpdate() }
        }
    }

    @exclusivity(unchecked) public var automaticallyUpdatesContentConfiguration = true
    @exclusivity(unchecked) public var automaticallyUpdatesBackgroundConfiguration = true

    /// Whether a pass's record keeps the configurations as they were before the pass and after
    /// `updated(for:)`, which a property trace diffs. Off, those stages are nil and a pass copies
    /// each configuration once (what was applied) instead of three times.
    @exclusivity(unchecked) public var recordsConfigurationStages = true

    /// The hairlines above and below a cell (headers and footers never draw them). Read when
    /// the cell is drawn, so a row's separators are repainted with the row; setting it drops the
    /// kept recording (the next draw records the row afresh), so the recording's inputs need
    /// not hold the configuration.
    @exclusivity(unchecked) public var separatorConfiguration = ListSeparatorConfiguration() {
        didSet {
            separatorsHaveSelectionColor = separatorConfiguration.multipleSelectionColor != nil
            usesDefaultSeparators = separatorConfiguration == ListSeparatorConfiguration()
            drawingCache.forgetRecording()
        }
    }
    /// Whether the separators' colour depends on the selection, kept as a flag: every redraw asks.
    @exclusivity(unchecked) private(set) var separatorsHaveSelectionColor = false
    /// Whether the separators are UIKit's defaults: every draw asks, and then reads nothing of
    /// the configuration.
    @exclusivity(unchecked) private(set) var usesDefaultSeparators = true

    /// The hairline below a cell: `separatorConfiguration`'s bottom visibility.
    public var bottomSeparatorVisibility: ListSeparatorVisibility {
        get { separatorConfiguration.bottomSeparatorVisibility }
        set { separatorConfiguration.bottomSeparatorVisibility = newValue }
    }

    /// UIKit's `indentationLevel`: the row's depth in an outline. The content view and the
    /// separator start `indentationLevel × indentationWidth` further from the leading edge; the
    /// background stays the cell's full width.
    @exclusivity(unchecked) public var indentationLevel = 0 {
        didSet { if indentationLevel != oldValue { indentationChanged() } }
    }
    /// UIKit's `indentationWidth`: the width of one level.
    @exclusivity(unchecked) public var indentationWidth: Double = ConfigurableViewIndentation.defaultWidth {
        didSet { if indentationWidth != oldValue { indentationChanged() } }
    }
    /// The indentation in points: level × width, never negative; kept, as every draw reads it.
    @exclusivity(unchecked) public private(set) var indentation: Double = 0

    private func indentationChanged() {
        indentation = Double(max(0, indentationLevel)) * max(0, indentationWidth)
        invalidateLayout()
    }

    /// Accessories and swipe actions around the content view (cells only); nil, or empty, is
    /// none, and then no pass does any decoration work. The content view shrinks to make room.
    public var decorations: CellDecorations? {
        get { storedDecorations }
        set {
            let value = newValue?.isEmpty == false ? newValue : nil
            guard value != storedDecorations else { return }
            storedDecorations = value
            hasDecorations = value != nil
            invalidateLayout()
            drawingCache.forgetRecording()
        }
    }
    @exclusivity(unchecked) private var storedDecorations: CellDecorations?
    /// Read by every pass: a flag, so undecorated cells never copy the optional decorations.
    @exclusivity(unchecked) public private(set) var hasDecorations = false

    /// UIKit's `updateConfiguration(using:)`: runs in every pass after `updated(for:)`.
    @exclusivity(unchecked) public var updateConfigurationOverride: ((ConfigurableView, State) -> Void)?

    /// Runs after `updateConfigurationOverride`; setting it requests an update.
    @exclusivity(unchecked) public var configurationUpdateHandler: ((ConfigurableView, State) -> Void)? {
        didSet { requestUpdate() }
    }

    /// The colour nil tints resolve to.
    @exclusivity(unchecked) public var tintColor: Color = .tintColor {
        didSet { if tintColor != oldValue { invalidateLayout() } }
    }

    /// Margins the content configuration may preserve (`axesPreservingSuperviewLayoutMargins`)
    /// and the background may add to its insets. They follow the horizontal size class (wider at
    /// a regular width) until code sets them.
    @exclusivity(unchecked) public var layoutMargins: DirectionalEdgeInsets {
        didSet {
            marginsFollowTraits = isApplyingSystemMargins
            if layoutMargins != oldValue { invalidateLayout() }
        }
    }
    @exclusivity(unchecked) private var marginsFollowTraits = true
    @exclusivity(unchecked) private var isApplyingSystemMargins = false

    /// The list's margins for the view's traits, unless code has set its own.
    private func followSystemMargins() {
        guard marginsFollowTraits else { return }
        let margins = appearance.cellLayoutMargins(for: inputs.traitCollection)
        guard margins != layoutMargins else { return }
        isApplyingSystemMargins = true
        layoutMargins = margins
        isApplyingSystemMargins = false
    }

    // MARK: The content view and the update pass

    @exclusivity(unchecked) public private(set) var contentView: (any ContentView)? {
        didSet { drawingCache.contentViewChanged(to: contentView) }
    }
    /// The last height and the last recording, kept while nothing they depend on changes.
    let drawingCache = DrawingCache()
    /// Whether a pass is pending, and how many requests it folds together.
    @exclusivity(unchecked) public private(set) var needsUpdateConfiguration = true
    @exclusivity(unchecked) private var pendingRequests = 1
    /// The state the last pass applied (its record's `state`) and the one applied before it.
    @exclusivity(unchecked) private var appliedState: State?
    @exclusivity(unchecked) private var stateBeforeLastPass: State?
    /// The rest of the last pass's record (nil outcome: no pass since the view was made or
    /// reused), without the configurations it applied while the view still holds them:
    /// `lastUpdate` is made from these when asked, so a pass copies no configuration into a
    /// record nobody may read. Plain properties, so a pass writes them one by one.
    @exclusivity(unchecked) private var lastPassOutcome: ConfigurationUpdate<State>.Outcome?
    @exclusivity(unchecked) private var lastPassRequests = 0
    /// The configurations before the pass and after `updated(for:)`, when stages are recorded.
    @exclusivity(unchecked) private var lastPassStages: RecordedStages?
    /// What the pass applied, once the view's own configurations moved on from it; nil while the
    /// view still holds exactly what the pass applied.
    @exclusivity(unchecked) private var lastPassApplied: AppliedConfigurations?

    /// Made before `updated(for:)` runs and completed after it, only by a pass that records:
    /// optional configurations held in locals, even nil ones, cost every pass generic stores and
    /// destroys.
    private final class RecordedStages {
        let contentBefore: (any ContentConfiguration)?
        let backgroundBefore: BackgroundConfiguration?
        var contentAfterUpdate: (any ContentConfiguration)?
        var backgroundAfterUpdate: BackgroundConfiguration?

        init(contentBefore: (any ContentConfiguration)?, backgroundBefore: BackgroundConfiguration?) {
            self.contentBefore = contentBefore
            self.backgroundBefore = backgroundBefore
        }

        func recordAfterUpdate(content: (any ContentConfiguration)?, background: BackgroundConfiguration?) {
            contentAfterUpdate = content
            backgroundAfterUpdate = background
        }
    }

    private final class AppliedConfigurations {
        let content: (any ContentConfiguration)?
        let background: BackgroundConfiguration?

        init(content: (any ContentConfiguration)?, background: BackgroundConfiguration?) {
            self.content = content
            self.background = background
        }
    }

    /// The record of the most recent pass (also of passes run implicitly before first display).
    public var lastUpdate: ConfigurationUpdate<State>? {
        guard let outcome = lastPassOutcome, let state = appliedState else { return nil }
        let stages = lastPassStages
        // Read without `map(\.content)`: a key path in this generic class is built at run time on
        // every read.
        let applied = lastPassApplied
        return ConfigurationUpdate<State>(
            previousState: stateBeforeLastPass, state: state, coalescedRequests: lastPassRequests,
            isFirstUpdate: stateBeforeLastPass == nil,
            contentBeforeUpdate: stages?.contentBefore, contentAfterUpdate: stages?.contentAfterUpdate,
            contentAfterHooks: applied != nil ? applied!.content : storedContent,
            backgroundBeforeUpdate: stages?.backgroundBefore, backgroundAfterUpdate: stages?.backgroundAfterUpdate,
            backgroundAfterHooks: applied != nil ? applied!.background : storedBackground,
            supportsAnswer: outcome.supportsAnswer, viewAction: outcome.viewAction)
    }

    /// Keeps what the last pass applied before the view's own configurations change: a setter,
    /// or a pass whose hooks (code that may read `lastUpdate`) run while it restyles.
    private func keepAppliedConfigurations() {
        guard lastPassOutcome != nil, lastPassApplied == nil else { return }
        lastPassApplied = AppliedConfigurations(content: storedContent, background: storedBackground)
    }

    private func drawingInputs(size: Size, clip: (rect: Rect, cornerRadius: Double)?, isLastInSection: Bool,
                               traits: TraitCollection) -> DrawingInputs {
        DrawingInputs(size: size, clipRect: clip?.rect, clipCornerRadius: clip?.cornerRadius ?? 0,
                      isLastInSection: isLastInSection, traits: traits, tintColor: tintColor, layoutMargins: layoutMargins,
                      separatorsSelected: separatorsSelected, contentView: contentView.map { ObjectIdentifier($0) },
                      indentation: indentation)
    }

    init(role: ConfigurableViewRole, appearance: ListAppearance, state: State) {
        self.role = role
        self.appearance = appearance
        inputs = state
        inputs.traitCollection.listEnvironment = appearance.listEnvironment
        layoutMargins = appearance.cellLayoutMargins(for: state.traitCollection)
        storedBackground = defaultBackgroundConfiguration()
    }

    /// The state `updated(for:)` and the hooks see: the view's flags, traits and custom states.
    public var configurationState: State { inputs }

    /// The view's traits; the list environment always follows `appearance`.
    public var traitCollection: TraitCollection {
        get { inputs.traitCollection }
        set {
            var traits = newValue
            traits.listEnvironment = appearance.listEnvironment
            mutateInputs { $0.traitCollection = traits }
            followSystemMargins()
        }
    }

    public subscript(customState key: ConfigurationStateCustomKey) -> CustomStateValue? {
        get { inputs.customStates[key] }
        set { mutateInputs { $0.customStates[key] = newValue } }
    }

    /// Changes state inputs; a real change requests an update.
    @_specialize(exported: true, where State == CellConfigurationState)
    @_specialize(exported: true, where State == ViewConfigurationState)
    public func mutateInputs(_ change: (inout State) -> Void) {
        var copy = inputs
        change(&copy)
        if copy != inputs {
            inputs = copy
            requestUpdate()
        }
    }

    /// Takes every flag and custom state of `state`, keeping the view's traits (a list's rows
    /// keep their flags and share the list's traits); a real change requests an update. One copy
    /// of the state, where `mutateInputs` makes three.
    @_specialize(exported: true, where State == CellConfigurationState)
    @_specialize(exported: true, where State == ViewConfigurationState)
    public func takeFlags(of state: State) {
        if inputs.takeFlags(of: state) { requestUpdate() }
    }

    /// Requests an update pass. Requests coalesce: many before a pass make one pass.
    public func setNeedsUpdateConfiguration() { requestUpdate() }

    private func requestUpdate() {
        pendingRequests += 1
        needsUpdateConfiguration = true
    }

    private func invalidateLayout() { drawingCache.invalidateLayout() }

    /// A fresh content configuration in the style of this view's list and role, for the current state.
    public func defaultContentConfiguration() -> ListContentConfiguration {
        ListContentConfiguration.styled(appearance.defaultContentStyle(for: role)).updated(for: inputs)
    }

    /// A fresh background configuration in the style of this view's list and role, for the current state.
    public func defaultBackgroundConfiguration() -> BackgroundConfiguration {
        BackgroundConfiguration.styled(appearance.defaultBackgroundStyle(for: role)).updated(for: inputs)
    }

    /// Runs the pending pass, if any: (1) state, (2) `updated(for:)` when automatic, (3) the
    /// override then the handler, (4) the content view takes the configuration (reused when it
    /// `supports` it, else replaced). Returns what happened; nil when nothing was pending.
    @discardableResult
    @_specialize(exported: true, where State == CellConfigurationState)
    @_specialize(exported: true, where State == ViewConfigurationState)
    public func updateConfigurationIfNeeded() -> ConfigurationUpdate<State>? {
        runPendingUpdate() == nil ? nil : lastUpdate
    }

    /// Runs the pending pass, if any, as `updateConfigurationIfNeeded()` does, and leaves its
    /// record in `lastUpdate` instead of returning a copy (the record holds every configuration
    /// stage); returns what the pass did with the content view, nil when nothing was pending.
    @discardableResult
    @_specialize(exported: true, where State == CellConfigurationState)
    @_specialize(exported: true, where State == ViewConfigurationState)
    public func runPendingUpdate() -> ConfigurationUpdate<State>.Outcome? {
        guard needsUpdateConfiguration else { return nil }
        // 1. The state. Its cell state is made once: both restyles read it.
        let state = inputs
        let cellState = state.cellState
        // Hooks are code that may read `lastUpdate` while this pass restyles in place.
        if updateConfigurationOverride != nil || configurationUpdateHandler != nil { keepAppliedConfigurations() }
        let stages = recordsConfigurationStages ? RecordedStages(contentBefore: storedContent, backgroundBefore: storedBackground) : nil
        // 2. `updated(for:)`, in place, when automatic.
        if automaticallyUpdatesContentConfiguration, hasContent { restyleReuse.restyle(&contentSlot, for: state, cellState: cellState) }
        if automaticallyUpdatesBackgroundConfiguration { storedBackground?.applyDefaults(for: cellState) }
        stages?.recordAfterUpdate(content: storedContent, background: storedBackground)
        // 3. The override, then the handler.
        isRunningHooks = true
        updateConfigurationOverride?(self, state)
        configurationUpdateHandler?(self, state)
        isRunningHooks = false
        // 4. The content view takes what the hooks left: reused or replaced.
        let (outcome, contentViewChanged) = applyContentToView()
        recordPass(outcome, stages: stages, state: consume state)
        // 5. Only a content view showing something new can want another height.
        if contentViewChanged { invalidateLayout() }
        return outcome
    }

    /// Hands the content configuration to the content view, reusing the view when it
    /// `supports` the configuration and replacing it otherwise; answers what was done, and
    /// whether the view now shows something new.
    private func applyContentToView() -> (ConfigurationUpdate<State>.Outcome, changed: Bool) {
        guard let view = contentView else {
            guard hasContent else { return (.init(supportsAnswer: nil, viewAction: .none), false) }
            contentView = contentSlot.makeContentView()
            return (.init(supportsAnswer: nil, viewAction: .created), true)
        }
        guard hasContent else {
            contentView = nil
            return (.init(supportsAnswer: nil, viewAction: .removed), true)
        }
        guard view.supports(contentSlot) else {
            contentView = contentSlot.makeContentView()
            return (.init(supportsAnswer: false, viewAction: .replaced), true)
        }
        if restyleReuse.viewShowsValue() ?? viewShowsEqualValue(view) {
            return (.init(supportsAnswer: true, viewAction: .reused), false)
        }
        view.configuration = contentSlot
        return (.init(supportsAnswer: true, viewAction: .reused), true)
    }

    /// Whether `view` holds a value equal to the slot's, asked only when `RestyleReuse` cannot
    /// tell; the answer is kept for the next time the same two values meet.
    private func viewShowsEqualValue(_ view: any ContentView) -> Bool {
        let equal = view.configuration.isEqual(to: contentSlot)
        restyleReuse.noteViewEquality(equal)
        return equal
    }

    /// Keeps the pass's record (`lastUpdate` is made from it when asked) and clears the pending requests.
    private func recordPass(_ outcome: ConfigurationUpdate<State>.Outcome, stages: RecordedStages?, state: consuming State) {
        lastPassOutcome = outcome
        lastPassRequests = pendingRequests
        lastPassStages = stages
        lastPassApplied = nil
        restyleReuse.viewTookValue(hasView: contentView != nil)
        stateBeforeLastPass = appliedState.take()
        appliedState = consume state
        pendingRequests = 0
        needsUpdateConfiguration = false
    }

    // MARK: Self-sizing and drawing

    /// The context the content view lays out in.
    public func layoutContext(measurer: any TextMeasuring) -> LayoutContext {
        LayoutContext(traits: inputs.traitCollection, textMeasurer: measurer, tintColor: tintColor,
                      superviewLayoutMargins: layoutMargins)
    }

    /// The height the content needs at `width` (self-sizing). Runs a pending update first, so the
    /// first layout already shows the first update; cached until something changes.
    @_specialize(exported: true, where State == CellConfigurationState)
    @_specialize(exported: true, where State == ViewConfigurationState)
    public func preferredHeight(forWidth width: Double, measurer: any TextMeasuring) -> Double {
        runPendingUpdate()
        if hasDecorations { return decoratedHeight(forWidth: width, measurer: measurer) }
        if let height = drawingCache.height(forWidth: width, traits: inputs.traitCollection) { return height }
        let height = contentView?.sizeThatFits(Size(width: max(0, width - indentation), height: 0),
                                               context: layoutContext(measurer: measurer)).height
            ?? layoutMargins.top + layoutMargins.bottom
        drawingCache.keepHeight(height, forWidth: width, traits: inputs.traitCollection)
        return height
    }

    /// Records background, content and separator for a view of `size`, in view coordinates.
    /// `clip` (a rect and corner radius in the same coordinates) rounds the corners of an
    /// inset-grouped section; `isLastInSection` drops the automatic separator of grouped lists.
    /// A pending update runs first: nothing is drawn from a stale configuration.
    @_specialize(exported: true, where State == CellConfigurationState)
    @_specialize(exported: true, where State == ViewConfigurationState)
    public func draw(size: Size, measurer: any TextMeasuring, clip: (rect: Rect, cornerRadius: Double)? = nil,
                     isLastInSection: Bool = false, into list: inout DisplayList) {
        runPendingUpdate()
        let bounds = Rect(origin: .zero, size: size)
        let traits = inputs.traitCollection
        if let clip { list.append(.pushClip(clip.rect, cornerRadius: clip.cornerRadius)) }
        if hasDecorations {
            // Accessories and swipe actions follow the state: never patched background-only.
            drawDecorated(size: size, isLastInSection: isLastInSection, measurer: measurer, into: &list)
            if clip != nil { list.append(.popClip) }
            drawingCache.forgetRecording()
            return
        }
        let backgroundStart = list.commands.count
        drawBackground(in: bounds, traits: traits, into: &list)
        let backgroundEnd = list.commands.count
        let context = layoutContext(measurer: measurer)
        contentView?.draw(in: contentBounds(in: bounds), context: context, into: &list)
        drawSeparators(size: size, isLastInSection: isLastInSection, context: context, into: &list)
        if clip != nil { list.append(.popClip) }
        drawingCache.recorded(for: drawingInputs(size: size, clip: clip, isLastInSection: isLastInSection, traits: traits),
                              background: backgroundStart..<backgroundEnd, commandCount: list.commands.count)
    }

    /// Brings `list` — this view's last recording, made by `draw` (or by this method) with the same
    /// measurer and nothing appended since — up to date by re-recording only the background, when
    /// nothing else it draws can have changed: same size, clip, traits, tint, margins, separator
    /// and content view, and the content view draws as it last recorded (a highlight restyles the
    /// background only). Answers whether the recording changed (exactly `old != new`); nil when it
    /// must be recorded afresh with `draw`, and then `list` is untouched. `willChange` runs just
    /// before `list` is written (so whoever else holds it can let go, and it is not copied).
    @_specialize(exported: true, where State == CellConfigurationState)
    @_specialize(exported: true, where State == ViewConfigurationState)
    public func redrawBackground(size: Size, measurer: any TextMeasuring, clip: (rect: Rect, cornerRadius: Double)? = nil,
                                 isLastInSection: Bool = false, updating list: inout DisplayList,
                                 willChange: () -> Void = {}) -> Bool? {
        runPendingUpdate()
        // Accessories and swipe actions follow the state: a decorated cell is recorded afresh.
        guard !hasDecorations else { return nil }
        let traits = inputs.traitCollection
        let bounds = Rect(origin: .zero, size: size)
        guard drawingCache.canRedrawBackgroundOnly(
            of: list, for: drawingInputs(size: size, clip: clip, isLastInSection: isLastInSection, traits: traits),
            bounds: contentBounds(in: bounds), context: layoutContext(measurer: measurer))
        else { return nil }
        drawingCache.backgroundRecording.removeAll()
        drawBackground(in: bounds, traits: traits, into: &drawingCache.backgroundRecording)
        return drawingCache.replaceBackground(in: &list, willChange: willChange)
    }

    /// The background configuration, or the plain background colour, for `bounds`.
    func drawBackground(in bounds: Rect, traits: TraitCollection, into list: inout DisplayList) {
        // Drawn where it is stored (an `if let`, or even a comparison with nil, copies the whole
        // configuration); nil when there is none.
        let drawn: Void? = storedBackground?.drawInPlace(in: bounds, traits: traits, tintColor: tintColor,
                                                         layoutMargins: layoutMargins, into: &list)
        if drawn == nil, let storedBackgroundColor {
            let fill = storedBackgroundColor.resolved(with: traits)
            if fill.alpha > 0 { list.append(.fill(bounds, fill)) }
        }
    }

    /// The hairline at the bottom of a cell: one pixel at the display scale, from where the text
    /// starts to the cell's trailing edge (mirrored right to left); nil when none is drawn.
    public func separatorFrame(size: Size, isLastInSection: Bool, context: LayoutContext) -> Rect? {
        separatorFrame(.bottom, size: size, isLastInSection: isLastInSection, context: context)
    }

    /// Gets the view ready for another row: flags and custom states back to normal, hooks and
    /// configurations cleared, background back to the default — the content view stays, so the
    /// next row's configuration can reuse it.
    public func prepareForReuse(resetState: State) {
        var fresh = resetState
        fresh.traitCollection = inputs.traitCollection
        inputs = fresh
        updateConfigurationOverride = nil
        configurationUpdateHandler = nil
        automaticallyUpdatesContentConfiguration = true
        automaticallyUpdatesBackgroundConfiguration = true
        if separatorConfiguration != ListSeparatorConfiguration() { separatorConfiguration = ListSeparatorConfiguration() }
        indentationLevel = 0
        decorations = nil
        setContent(nil, restyledFor: nil)
        storedBackgroundColor = nil
        storedBackground = defaultBackgroundConfiguration()
        appliedState = nil
        stateBeforeLastPass = nil
        lastPassOutcome = nil
        lastPassStages = nil
        lastPassApplied = nil
        drawingCache.forgetRecording()
        pendingRequests = 1
        needsUpdateConfiguration = true
        invalidateLayout()
    }
}

/// A list cell: its state is a `CellConfigurationState`.
public typealias Cell = ConfigurableView<CellConfigurationState>
/// A section header or footer: its state is a `ViewConfigurationState`.
public typealias HeaderFooterView = ConfigurableView<ViewConfigurationState>

extension ConfigurableView where State == CellConfigurationState {
    public convenience init(appearance: ListAppearance = .plain, traits: TraitCollection = .default) {
        self.init(role: .cell, appearance: appearance, state: CellConfigurationState(traitCollection: traits))
    }

    public var isHighlighted: Bool { get { inputs.isHighlighted } set { mutateInputs { $0.isHighlighted = newValue } } }
    public var isSelected: Bool { get { inputs.isSelected } set { mutateInputs { $0.isSelected = newValue } } }
    public var isDisabled: Bool { get { inputs.isDisabled } set { mutateInputs { $0.isDisabled = newValue } } }
    public var isFocused: Bool { get { inputs.isFocused } set { mutateInputs { $0.isFocused = newValue } } }
    public var isEditing: Bool { get { inputs.isEditing } set { mutateInputs { $0.isEditing = newValue } } }
    public var isExpanded: Bool { get { inputs.isExpanded } set { mutateInputs { $0.isExpanded = newValue } } }
    public var isSwiped: Bool { get { inputs.isSwiped } set { mutateInputs { $0.isSwiped = newValue } } }
    public var isReordering: Bool { get { inputs.isReordering } set { mutateInputs { $0.isReordering = newValue } } }
    public var cellDragState: CellDragState { get { inputs.cellDragState } set { mutateInputs { $0.cellDragState = newValue } } }
    public var cellDropState: CellDropState { get { inputs.cellDropState } set { mutateInputs { $0.cellDropState = newValue } } }

    public func prepareForReuse() { prepareForReuse(resetState: CellConfigurationState()) }
}

extension ConfigurableView where State == ViewConfigurationState {
    /// A header (`role: .header`) or footer (`.footer`) view.
    public convenience init(role: ConfigurableViewRole, appearance: ListAppearance = .plain,
                            traits: TraitCollection = .default) {
        self.init(role: role == .cell ? .header : role, appearance: appearance,
                  state: ViewConfigurationState(traitCollection: traits))
    }

    public var isHighlighted: Bool { get { inputs.isHighlighted } set { mutateInputs { $0.isHighlighted = newValue } } }
    public var isSelected: Bool { get { inputs.isSelected } set { mutateInputs { $0.isSelected = newValue } } }
    public var isDisabled: Bool { get { inputs.isDisabled } set { mutateInputs { $0.isDisabled = newValue } } }
    public var isFocused: Bool { get { inputs.isFocused } set { mutateInputs { $0.isFocused = newValue } } }
    public var isPinned: Bool { get { inputs.isPinned } set { mutateInputs { $0.isPinned = newValue } } }

    public func prepareForReuse() { prepareForReuse(resetState: ViewConfigurationState()) }
}
