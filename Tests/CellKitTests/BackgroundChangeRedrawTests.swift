import Testing
@testable import CellKit

/// A cell redrawn when only its background may have changed replaces the background's commands
/// in its last recording. The patched recording must equal a fresh recording command for command
/// (bounds to the bit), and its answer must be exactly whether the recording changed.
@Suite struct BackgroundChangeRedrawTests {
    let measurer = FixedAdvanceTextMeasurer()

    /// Two cells run the same passes; one keeps its recording and patches it where it can, the
    /// other records afresh every time.
    @Test func aPatchedRecordingEqualsAFreshOne() throws {
        var patches = 0, unchanged = 0, refused = 0
        for (n, configuration) in RestyleConsistencyTests.configurations.enumerated() where n % 3 != 2 {
            for customBackground in [false, true] {
                let kept = Cell(appearance: .insetGrouped), fresh = Cell(appearance: .insetGrouped)
                let cells = [kept, fresh]
                for cell in cells {
                    cell.contentConfiguration = configuration
                    if customBackground {
                        var b = cell.backgroundConfiguration!
                        b.strokeColor = .systemBlue
                        b.strokeWidth = 2
                        cell.backgroundConfiguration = b
                    }
                }
                var keptDrawing = DisplayList()
                var clip: (rect: Rect, cornerRadius: Double)?
                var isLast = false
                func pass(_ step: String, _ change: (Cell) -> Void) {
                    for cell in cells { change(cell) }
                    let height = fresh.preferredHeight(forWidth: 320, measurer: measurer)
                    #expect(kept.preferredHeight(forWidth: 320, measurer: measurer) == height)
                    let size = Size(width: 320, height: height)
                    var expected = DisplayList()
                    fresh.draw(size: size, measurer: measurer, clip: clip, isLastInSection: isLast, into: &expected)
                    let before = keptDrawing
                    if let changed = kept.redrawBackground(size: size, measurer: measurer, clip: clip,
                                                           isLastInSection: isLast, updating: &keptDrawing) {
                        #expect(changed == (before != expected), "\(configuration.style) \(step): the answer")
                        if changed { patches += 1 } else { unchanged += 1 }
                    } else {
                        #expect(keptDrawing == before, "\(step): a refused patch leaves the recording alone")
                        refused += 1
                        keptDrawing = DisplayList()
                        kept.draw(size: size, measurer: measurer, clip: clip, isLastInSection: isLast, into: &keptDrawing)
                    }
                    #expect(keptDrawing.commands == expected.commands, "\(configuration.style) \(step)")
                    #expect(keptDrawing.bounds == expected.bounds, "\(configuration.style) \(step): bounds")
                }
                pass("first") { _ in }
                for (i, state) in RestyleConsistencyTests.states.enumerated() {
                    pass("state \(i)") { $0.mutateInputs { s in s = state } }
                    pass("state \(i) toggled") { $0.isHighlighted.toggle() }
                    pass("state \(i) again") { $0.setNeedsUpdateConfiguration() }
                }
                pass("highlighted") { $0.isHighlighted = true }
                clip = (Rect(x: 0, y: 0, width: 320, height: 200), 10)
                pass("clipped") { $0.isHighlighted = false }
                pass("clipped, highlighted") { $0.isHighlighted = true }
                isLast = true
                pass("last in section") { $0.isHighlighted = false }
                pass("background colour") { $0.backgroundColor = .systemPink }
                pass("background colour, highlighted") { $0.isHighlighted = true }
                pass("background set") { $0.backgroundConfiguration = .listPlainCell() }
                pass("tint") { $0.tintColor = .systemOrange }
                pass("margins") { $0.layoutMargins.leading += 4 }
                pass("separator") { $0.bottomSeparatorVisibility = .visible }
                pass("text") { cell in
                    cell.contentConfiguration = try! cell.contentConfiguration!.setting("text", to: .string("Changed"))
                }
                pass("not highlighted") { $0.isHighlighted = false }
                pass("reused") { $0.prepareForReuse() }
                pass("configured") { $0.contentConfiguration = configuration }
                pass("highlighted after reuse") { $0.isHighlighted = true }
            }
        }
        #expect(patches > 50, "backgrounds were patched")
        #expect(unchanged > 20, "unchanged backgrounds were told unchanged")
        #expect(refused > 50, "changes beyond the background were recorded afresh")
    }

    /// Only a content view that keeps its last recording is asked whether it draws as before; a
    /// cell with any other view records afresh, whatever that view would answer.
    @Test func aViewThatKeepsNoRecordingIsNeverPatched() throws {
        for keeps in [false, true] {
            let cell = Cell(appearance: .insetGrouped)
            cell.contentConfiguration = AnsweringConfiguration(keepsLastRecording: keeps)
            let size = Size(width: 320, height: cell.preferredHeight(forWidth: 320, measurer: measurer))
            var drawing = DisplayList()
            cell.draw(size: size, measurer: measurer, into: &drawing)
            cell.isHighlighted = true
            let patched = cell.redrawBackground(size: size, measurer: measurer, updating: &drawing)
            #expect((patched != nil) == keeps, "keeps its recording: \(keeps)")
        }
    }

    /// Replacing a range keeps the bounds of the same commands appended one by one.
    @Test func replacedCommandsGrowTheBoundsInOrder() {
        let third = 1.0 / 3
        let a = DisplayCommand.fill(Rect(x: third, y: 0, width: 10 + third, height: 2 * third), .white)
        let b = DisplayCommand.fill(Rect(x: -third, y: 5, width: 1, height: 1), .black)
        let c = DisplayCommand.roundedRect(Rect(x: 2 * third, y: third, width: 3, height: 40 + third), cornerRadius: 2, color: .systemRed)
        var list = DisplayList([a, c])
        let same = list.replaceCommands(in: 0..<1, with: DisplayList([a]))
        #expect(!same, "the same command changes nothing")
        let grown = list.replaceCommands(in: 0..<1, with: DisplayList([b, a]))
        #expect(grown)
        #expect(list == DisplayList([b, a, c]))
        let shrunk = list.replaceCommands(in: 0..<2, with: DisplayList())
        #expect(shrunk)
        #expect(list == DisplayList([c]))
        #expect(list.bounds == DisplayList([c]).bounds)
        // Recoloured in place (the same areas), then moved (as many commands, other areas).
        var recoloured = DisplayList([a, c])
        let recolouredChanged = recoloured.replaceCommands(
            in: 0..<1, with: DisplayList([.fill(Rect(x: third, y: 0, width: 10 + third, height: 2 * third), .black)]))
        #expect(recolouredChanged)
        #expect(recoloured.bounds == DisplayList([a, c]).bounds)
        let moved = recoloured.replaceCommands(in: 0..<1, with: DisplayList([b]))
        #expect(moved)
        #expect(recoloured.bounds == DisplayList([b, c]).bounds)
        #expect(recoloured.bounds != DisplayList([a, c]).bounds)
    }
}

/// A configuration whose view always answers that it draws as before, and says whether it keeps
/// its recording as told.
struct AnsweringConfiguration: ContentConfiguration, Equatable, PropertyInspectable {
    var keepsLastRecording: Bool
    var typeIdentifier: String { "test.answering" }
    func makeContentView() -> any ContentView { AnsweringView(configuration: self) }
    func updated(for state: any ConfigurationState) -> Self { self }
    static let propertyTable = PropertyTable<AnsweringConfiguration>([])
}

final class AnsweringView: ContentViewFastPaths {
    var configuration: any ContentConfiguration
    let keepsLastRecording: Bool
    init(configuration: AnsweringConfiguration) {
        self.configuration = configuration
        keepsLastRecording = configuration.keepsLastRecording
    }
    func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size { Size(width: targetSize.width, height: 44) }
    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {
        list.append(.fill(bounds.insetBy(dx: 16, dy: 8), .black))
    }
    func drawsAsLastRecorded(in bounds: Rect, context: LayoutContext) -> Bool { true }
}
