import CellKit

extension EngineRow {
    /// The form of the row's stream update handler; nil when the item has none. Read in place
    /// every traced pass (binding `item` would copy the whole description).
    var updateHandlerForm: UpdateHandlerForm? {
        item?.handlers.isEmpty == false ? item?.handlerForm : nil
    }

    /// Gives `cell` the item's update handler, in the form the stream names; its properties were
    /// checked when the row was made, so a rule cannot fail inside the cell.
    func installUpdateHandler(on cell: Cell) {
        guard let item, !item.handlers.isEmpty else { return }
        let rules = item.handlers
        switch item.handlerForm {
        case .modify:
            // Sets on the stored configurations: what a rule sets stays customised, so locked.
            cell.configurationUpdateHandler = { cell, state in
                for rule in rules where rule.when.matches(state) {
                    for a in rule.set {
                        if let c = cell.contentConfiguration, let updated = try? c.setting(a.name, to: a.value) {
                            cell.contentConfiguration = updated
                        }
                    }
                    for a in rule.background {
                        if let b = cell.backgroundConfiguration, let updated = try? b.setting(a.name, to: a.value) {
                            cell.backgroundConfiguration = updated
                        }
                    }
                }
            }
        case .fresh:
            // Builds both configurations anew from the row's data each pass. Weak: the row holds
            // the cell while it is attached.
            cell.configurationUpdateHandler = { [weak self] cell, state in
                guard let self else { return }
                var content = configuration.updated(for: state)
                var background = (self.background ?? pristineBackground).updated(for: state)
                if recordsPropertyChanges { freshHandlerBase = (content, background) }
                for rule in rules where rule.when.matches(state) {
                    for a in rule.set {
                        if let updated = try? content.setting(a.name, to: a.value) { content = updated }
                    }
                    for a in rule.background {
                        if let updated = try? background.setting(a.name, to: a.value) { background = updated }
                    }
                }
                cell.contentConfiguration = content
                cell.backgroundConfiguration = background
            }
        }
    }
}
