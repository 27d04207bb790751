import CellKit

/// One row of the list as the engine keeps it — a cell, a header or a footer — with its
/// configurations, its state and, while visible, its content view. It runs UIKit's update cycle
/// (UIKIT.md §6) for itself and records what happened.
final class EngineCell {
    enum Kind { case cell, header, footer }

    let name: String
    let kind: Kind
    /// Stable compositor layer id.
    let layerID: Int
    var item: ItemDescription?
    var content: any ContentConfiguration
    var background: BackgroundConfiguration
    /// The configurations as their factory made them, before anything was customised: what the
    /// state alone would restyle. A customised property is reported "locked" only when the state
    /// change restyles it here — otherwise keeping its value is no news.
    var pristineContent: any ContentConfiguration
    var pristineBackground: BackgroundConfiguration
    /// Pristine property values for `lastState`, keyed "content.name" / "background.name".
    private var pristineValues: [String: PropertyValue]?
    /// Flags and custom states; traits are filled in from the list on every update.
    var state: CellConfigurationState
    /// The state of the last update pass (nil before the first one).
    var lastState: CellConfigurationState?
    var view: (any ContentView)?
    /// Height from self-sizing; an estimate until the cell has been displayed.
    var size: Size
    /// Where the row sits in the list's content (points).
    var frame: Rect = .zero
    /// The last recording, in cell coordinates.
    var drawing = DisplayList()

    // What the coming update pass must report, gathered from the events of one pass.
    var needsUpdate = false
    var causes: [String] = []
    var setByEvent: Set<String> = []
    var backgroundSetByEvent: Set<String> = []
    var contentBefore: [InspectableProperty]?
    var backgroundBefore: [InspectableProperty]?

    init(name: String, kind: Kind, layerID: Int, item: ItemDescription?, pristine: any ContentConfiguration,
         content: any ContentConfiguration, background: BackgroundConfiguration, estimatedHeight: Double, width: Double) {
        self.name = name
        self.kind = kind
        self.layerID = layerID
        self.item = item
        self.content = content
        self.background = background
        self.pristineContent = pristine
        self.pristineBackground = background
        self.state = CellConfigurationState()
        self.size = Size(width: width, height: estimatedHeight)
    }

    var automaticallyUpdatesContent: Bool { item?.automaticallyUpdatesContentConfiguration ?? true }
    var automaticallyUpdatesBackground: Bool { item?.automaticallyUpdatesBackgroundConfiguration ?? true }

    /// Asks for an update in the coming pass, keeping the properties as they were before any
    /// change the events of this pass make (so the trace shows old → new across the pass).
    func requestUpdate(cause: String) {
        if contentBefore == nil { contentBefore = content.inspectableProperties }
        if backgroundBefore == nil { backgroundBefore = background.inspectableProperties }
        needsUpdate = true
        if !causes.contains(cause) { causes.append(cause) }
    }

    /// The state a configuration is updated for: headers and footers get a view state.
    func configurationState(traits: TraitCollection) -> any ConfigurationState {
        var s = state
        s.traitCollection = traits
        return kind == .cell ? s : s.viewState
    }

    /// Steps 1–4 of the cycle: new state, `updated(for:)`, hooks, reuse or replace. Returns the
    /// trace of the update without geometry (the engine adds size, frame and damage after layout).
    func runUpdatePass(traits: TraitCollection, pool: inout [any ContentView]) throws(EngineError) -> CellUpdateTrace {
        var newState = state
        newState.traitCollection = traits
        let beforeState = lastState
        let configState = configurationState(traits: traits)
        let contentBefore = self.contentBefore ?? content.inspectableProperties
        let backgroundBefore = self.backgroundBefore ?? background.inspectableProperties

        // 2. updated(for:), for content and background when automatic updates are on.
        if automaticallyUpdatesContent { content = content.updated(for: configState) }
        if automaticallyUpdatesBackground { background = background.updated(for: configState) }
        let contentAfterUpdate = content.inspectableProperties
        let backgroundAfterUpdate = background.inspectableProperties

        // 3. The update handler: rules whose state matches set their properties.
        for rule in item?.handlers ?? [] where rule.when.matches(newState) {
            for a in rule.set {
                do { content = try content.setting(a.name, to: a.value) } catch {
                    throw EngineError("update handler of \(name): \(error)", line: item?.line)
                }
            }
            for a in rule.background {
                do { background = try background.setting(a.name, to: a.value) } catch {
                    throw EngineError("update handler of \(name): \(error)", line: item?.line)
                }
            }
        }
        let contentFinal = content.inspectableProperties
        let backgroundFinal = background.inspectableProperties

        // 4. Reuse or replace the content view.
        let outcome: ViewOutcome
        var supports: Bool?
        if let view {
            let s = view.supports(content)
            supports = s
            if s {
                view.configuration = content
                outcome = .reused
            } else {
                self.view = content.makeContentView()
                outcome = .replaced
            }
        } else if let i = pool.firstIndex(where: { $0.supports(content) }) {
            let reused = pool.remove(at: i)
            reused.configuration = content
            view = reused
            supports = true
            outcome = .reused
        } else {
            view = content.makeContentView()
            outcome = .created
        }

        // What the state change restyles on an uncustomised configuration of the same kind.
        var pristineNow: [String: PropertyValue] = [:]
        for p in pristineContent.updated(for: configState).inspectableProperties { pristineNow["content." + p.name] = p.value }
        for p in pristineBackground.updated(for: configState).inspectableProperties { pristineNow["background." + p.name] = p.value }
        let pristineBefore = pristineValues
        pristineValues = pristineNow
        func stateRestyles(_ key: String) -> Bool {
            guard let pristineBefore else { return false }
            return pristineBefore[key] != pristineNow[key]
        }
        let cause = EngineCell.delta(from: beforeState, to: newState)
        var changes: [PropertyChangeTrace] = []
        for (configuration, before, afterUpdate, final, setByEvent) in [
            ("content", contentBefore, contentAfterUpdate, contentFinal, self.setByEvent),
            ("background", backgroundBefore, backgroundAfterUpdate, backgroundFinal, backgroundSetByEvent),
        ] {
            for change in PropertyChange.changes(before: before, afterUpdate: afterUpdate, afterHooks: final,
                                                 setByEvent: setByEvent) {
                let reason: PropertyChangeReason
                switch change.reason {
                case .unchanged: continue
                case .lockedKept:
                    // Locked properties matter when the state would have restyled them: they are
                    // why a cell did not change its look.
                    guard stateRestyles(configuration + "." + change.name) else { continue }
                    reason = .locked
                case .restyledByState: reason = .restyled
                case .setByHook: reason = .setByHook
                case .setByEvent: reason = .setByEvent
                }
                changes.append(PropertyChangeTrace(
                    configuration: configuration, property: change.name,
                    old: change.oldValue.description,
                    new: change.newValue.description, reason: reason,
                    cause: (reason == .restyled || reason == .locked) ? cause : nil))
            }
        }

        lastState = newState
        needsUpdate = false
        self.contentBefore = nil
        self.backgroundBefore = nil
        self.setByEvent = []
        self.backgroundSetByEvent = []
        let causeText = causes.joined(separator: ", ")
        causes = []
        return CellUpdateTrace(
            cell: name, type: content.typeIdentifier, cause: causeText,
            stateBefore: beforeState.map(EngineCell.words) ?? [], stateAfter: EngineCell.words(newState),
            changes: changes, view: outcome, supports: supports, size: size, frame: frame, damage: nil, micros: 0)
    }

    /// Gives the view back to the reuse pool (the cell scrolled out of the viewport).
    func releaseView(to pool: inout [any ContentView]) {
        if let view { pool.append(view) }
        view = nil
        drawing = DisplayList()
    }

    /// Step 5: self-sizing at the row width — the content's height, never a fixed one.
    func measure(width: Double, context: LayoutContext) {
        guard let view else { return }
        let fitted = view.sizeThatFits(Size(width: width, height: 0), context: context)
        size = Size(width: width, height: max(1, fitted.height.rounded(.up)))
    }

    /// Records background then content, in cell coordinates.
    func draw(context: LayoutContext) -> DisplayList {
        var list = DisplayList()
        let bounds = Rect(origin: .zero, size: size)
        background.draw(in: bounds, traits: context.traits, tintColor: context.tintColor, into: &list)
        view?.draw(in: bounds, context: context, into: &list)
        return list
    }

    /// The flags that are on, as words for traces.
    static func words(_ s: CellConfigurationState) -> [String] {
        var w: [String] = []
        if s.isHighlighted { w.append("highlighted") }
        if s.isSelected { w.append("selected") }
        if s.isDisabled { w.append("disabled") }
        if s.isFocused { w.append("focused") }
        if s.isPinned { w.append("pinned") }
        if s.isEditing { w.append("editing") }
        if s.isExpanded { w.append("expanded") }
        if s.isSwiped { w.append("swiped") }
        if s.isReordering { w.append("reordering") }
        if s.cellDragState != .none { w.append("drag=\(s.cellDragState.rawValue)") }
        if s.cellDropState != .none { w.append("drop=\(s.cellDropState.rawValue)") }
        for (k, v) in s.customStates.sorted(by: { $0.key < $1.key }) { w.append("\(k)=\(v)") }
        return w
    }

    /// What moved between two states, in words: the cause a restyle is attributed to.
    static func delta(from old: CellConfigurationState?, to new: CellConfigurationState) -> String {
        guard let old else { return "first display" }
        let before = Set(words(old)), after = words(new)
        var parts = after.filter { !before.contains($0) }
        let afterSet = Set(after)
        parts += words(old).filter { !afterSet.contains($0) }.map { "not \($0)" }
        let a = old.traitCollection, b = new.traitCollection
        if a.userInterfaceStyle != b.userInterfaceStyle { parts.append(b.userInterfaceStyle.rawValue) }
        if a.preferredContentSizeCategory != b.preferredContentSizeCategory { parts.append(b.preferredContentSizeCategory.shortName) }
        if a.layoutDirection != b.layoutDirection { parts.append(b.layoutDirection == .rightToLeft ? "rtl" : "ltr") }
        if a.accessibilityContrast != b.accessibilityContrast { parts.append("\(b.accessibilityContrast.rawValue) contrast") }
        if a.horizontalSizeClass != b.horizontalSizeClass { parts.append("\(b.horizontalSizeClass.rawValue) width") }
        if a.verticalSizeClass != b.verticalSizeClass { parts.append("\(b.verticalSizeClass.rawValue) height") }
        return parts.isEmpty ? "no state change" : parts.joined(separator: ", ")
    }
}

/// A problem that stops a run: bad input the parser could not know about (a property a plugin
/// type does not have, an unknown type id), named with the stream line.
public struct EngineError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var line: Int?
    public init(_ message: String, line: Int? = nil) {
        self.message = message
        self.line = line
    }
    public var description: String { message }
}
