/// Where a list content configuration puts its image and texts at a given width: the frames of
/// UIKit's `imageLayoutGuide`, `textLayoutGuide` and `secondaryTextLayoutGuide`, and the height
/// the content needs (self-sizing). Pure function of configuration, width and context, so the
/// first layout is the final one and cells never jump.
public struct ListContentLayout: Hashable, Sendable {
    /// The width asked for and the height the content needs.
    public var size: Size
    /// Where the image is drawn (its own size, aspect-fit to `maximumSize`), centred in the reserved area.
    public var imageFrame: Rect?
    /// The area reserved for the image; text aligns to it (the image layout guide).
    public var imageLayoutFrame: Rect?
    public var textFrame: Rect?
    public var secondaryTextFrame: Rect?
    /// Fonts after Dynamic Type and fit-to-width scaling, as drawn.
    public var textFont: Font
    public var secondaryTextFont: Font
    /// The symbol size an image is drawn at (symbols only).
    public var symbolPointSize: Double
    /// Secondary text on the text's line (trailing) rather than under it.
    public var isSideBySide: Bool
    /// Accessibility text sizes: text under the image, using the full width.
    public var isAccessibilityLayout: Bool
    /// Distance from the leading edge to where the text starts (UIKit's separator layout guide:
    /// a row's separator lines up with the text, not the image). Direction-independent.
    public var textLeadingInset: Double
    /// Attributed text of several runs in its lines, as drawn in `textFrame` /
    /// `secondaryTextFrame`; nil for plain text (one run).
    var styledText: StyledText?
    var secondaryStyledText: StyledText?
}

extension ListContentLayout {
    /// The standard image dimension (`ImageProperties.standardDimension`) for a text font: the
    /// reserved width of a symbol next to body text is 29 points at Large, and scales with it.
    public static func standardImageDimension(for font: Font) -> Double {
        (font.pointSize * 29 / 17).rounded(.up)
    }

    /// The least height of a list cell's content (UIKit's default row height): 44 points at the
    /// Large text size, scaling with the body style as the text size grows, and never below 44
    /// (the smallest comfortable touch target) at the smaller sizes. Headers and footers have none.
    public static func minimumCellHeight(for category: ContentSizeCategory) -> Double {
        let body = TextStyle.body
        return max(44, (44 * body.pointSize(for: category) / body.pointSize(for: .large)).rounded())
    }

    /// Lays `configuration` out at `width`. Frames are in view coordinates, mirrored for
    /// right-to-left layout. Text is measured only through `context.textMeasurer`.
    ///
    /// Rules (UIKit's): margins are the configuration's, raised to the superview's on preserved
    /// axes; the image sits in its reserved area (0 = its own size, but a symbol whose reservation
    /// was never set gets the standard dimension, as UIKit reserves it for them) and may overflow it; the text starts
    /// `imageToTextPadding` after the reserved area; side-by-side secondary text goes to the
    /// trailing edge only if both fit on one line, else it is stacked
    /// `textToSecondaryTextVerticalPadding` below; image and text block are centred vertically.
    /// At accessibility sizes the image sits above the text, which takes the whole width.
    public init(configuration c: ListContentConfiguration, width: Double, context: LayoutContext) {
        let traits = context.traits
        let measurer = context.textMeasurer
        var margins = c.directionalLayoutMargins
        let superMargins = context.superviewLayoutMargins
        if c.axesPreservingSuperviewLayoutMargins.contains(.horizontal) {
            margins.leading = max(margins.leading, superMargins.leading)
            margins.trailing = max(margins.trailing, superMargins.trailing)
        }
        if c.axesPreservingSuperviewLayoutMargins.contains(.vertical) {
            margins.top = max(margins.top, superMargins.top)
            margins.bottom = max(margins.bottom, superMargins.bottom)
        }
        let contentLeft = margins.leading
        let contentWidth = max(0, width - margins.leading - margins.trailing)
        let accessibility = traits.preferredContentSizeCategory.isAccessibilityCategory

        textFont = c.attributedText?.font(over: c.textProperties.font) ?? c.textProperties.font
        secondaryTextFont = c.secondaryAttributedText?.font(over: c.secondaryTextProperties.font) ?? c.secondaryTextProperties.font
        isAccessibilityLayout = accessibility
        isSideBySide = false

        // Image: natural size, aspect-fit into maximumSize, reserved area.
        let symbolConfig = c.imageProperties.preferredSymbolConfiguration
        symbolPointSize = symbolConfig?.pointSize
            ?? symbolConfig?.textStyle.map { $0.pointSize(for: traits.preferredContentSizeCategory) }
            ?? textFont.pointSize
        let standard = Self.standardImageDimension(for: textFont)
        var imageSize = Size.zero
        var reserved = Size.zero
        if let image = c.image {
            if case .symbol(let name) = image.source {
                imageSize = measurer.symbolSize(named: name, pointSize: symbolPointSize)
            } else {
                imageSize = image.size ?? image.filePath.flatMap(measurer.imageSize(atPath:))
                    ?? Size(width: standard, height: standard)
            }
            let maxSize = c.imageProperties.maximumSize
            let limitW = maxSize.width == ImageProperties.standardDimension ? standard : maxSize.width
            let limitH = maxSize.height == ImageProperties.standardDimension ? standard : maxSize.height
            var scale = 1.0
            if limitW > 0 && imageSize.width > limitW { scale = min(scale, limitW / imageSize.width) }
            if limitH > 0 && imageSize.height > limitH { scale = min(scale, limitH / imageSize.height) }
            imageSize = Size(width: imageSize.width * scale, height: imageSize.height * scale)
            // A symbol whose reservation was never set gets the standard one (UIKit's default for
            // symbols); one set to 0 explicitly reserves only its own size.
            let symbolDefault = image.isSymbol && !c.imageProperties.$reservedLayoutSize.isCustomized
            func reservedDimension(_ asked: Double, own: Double) -> Double {
                if asked == ImageProperties.standardDimension || (asked == 0 && symbolDefault) { return standard }
                return asked > 0 ? asked : own
            }
            reserved = Size(width: reservedDimension(c.imageProperties.reservedLayoutSize.width, own: imageSize.width),
                            height: reservedDimension(c.imageProperties.reservedLayoutSize.height, own: imageSize.height))
        }
        let hasImage = c.image != nil

        // Text area.
        let text = c.displayedText
        let secondary = c.displayedSecondaryText
        var textX = contentLeft
        var textWidth = contentWidth
        if hasImage && !accessibility {
            textX = contentLeft + reserved.width + c.imageToTextPadding
            textWidth = max(0, contentLeft + contentWidth - textX)
        }
        textLeadingInset = textX

        func request(_ string: String, _ font: Font, _ p: TextProperties) -> TextLayoutRequest {
            TextLayoutRequest(text: string, font: font, numberOfLines: p.numberOfLines, lineBreakMode: p.lineBreakMode,
                              layoutDirection: traits.layoutDirection)
        }
        /// Shrinks a single-line font until the text fits, down to `minimumScaleFactor`; the
        /// height the unshrunk line needs comes back too, since UIKit shrinks the text inside
        /// the label's box and the box (so the row) keeps the font's own line height.
        func fitted(_ string: String, _ font: Font, _ p: TextProperties, width: Double) -> (Font, lineHeight: Double?) {
            guard p.adjustsFontSizeToFitWidth, p.numberOfLines == 1, width > 0 else { return (font, nil) }
            let natural = measurer.measure(request(string, font, p), width: nil).size
            guard natural.width > width else { return (font, nil) }
            var smaller = font
            smaller.pointSize = font.pointSize * max(p.minimumScaleFactor, width / natural.width)
            return (smaller, natural.height)
        }
        /// The same for several runs: every run's font shrinks by one factor (the text's font
        /// with them, as drawn).
        func fitted(_ runs: StyledCharacters, _ font: inout Font, _ p: TextProperties,
                    width: Double) -> (StyledCharacters, lineHeight: Double?) {
            guard p.adjustsFontSizeToFitWidth, p.numberOfLines == 1, width > 0 else { return (runs, nil) }
            let natural = StyledText(runs, width: nil, numberOfLines: 1, lineBreakMode: p.lineBreakMode).metrics.size
            guard natural.width > width else { return (runs, nil) }
            let factor = max(p.minimumScaleFactor, width / natural.width)
            font.pointSize *= factor
            return (runs.scaled(by: factor), natural.height)
        }
        func styled(_ runs: StyledCharacters?, _ p: TextProperties, width: Double?) -> StyledText? {
            runs.map { StyledText($0, width: width, numberOfLines: p.numberOfLines, lineBreakMode: p.lineBreakMode) }
        }

        var textMetrics: TextMetrics?
        var secondaryMetrics: TextMetrics?
        var secondaryX = textX
        var secondaryWidth = textWidth
        var textLineHeight: Double?, secondaryLineHeight: Double?
        // Several runs keep their own fonts, piece by piece, in lines (`StyledText`).
        var runs = StyledCharacters(several: c.attributedText, base: textFont, properties: c.textProperties,
                                    direction: traits.layoutDirection, measurer: measurer)
        var secondaryRuns = StyledCharacters(several: c.secondaryAttributedText, base: secondaryTextFont,
                                             properties: c.secondaryTextProperties, direction: traits.layoutDirection,
                                             measurer: measurer)
        if let r = runs {
            (runs, textLineHeight) = fitted(r, &textFont, c.textProperties, width: textWidth)
        } else if let text {
            (textFont, textLineHeight) = fitted(text, textFont, c.textProperties, width: textWidth)
        }
        if let r = secondaryRuns {
            (secondaryRuns, secondaryLineHeight) = fitted(r, &secondaryTextFont, c.secondaryTextProperties, width: textWidth)
        } else if let secondary {
            (secondaryTextFont, secondaryLineHeight) = fitted(secondary, secondaryTextFont, c.secondaryTextProperties, width: textWidth)
        }

        if let text, let secondary, c.prefersSideBySideTextAndSecondaryText, !accessibility {
            styledText = styled(runs, c.textProperties, width: nil)
            secondaryStyledText = styled(secondaryRuns, c.secondaryTextProperties, width: nil)
            let t = styledText?.metrics ?? measurer.measure(request(text, textFont, c.textProperties), width: nil)
            let s = secondaryStyledText?.metrics
                ?? measurer.measure(request(secondary, secondaryTextFont, c.secondaryTextProperties), width: nil)
            if t.lineCount == 1 && s.lineCount == 1
                && t.size.width + c.textToSecondaryTextHorizontalPadding + s.size.width <= textWidth
            {
                isSideBySide = true
                textMetrics = t
                secondaryMetrics = s
                secondaryWidth = s.size.width
                secondaryX = textX + textWidth - s.size.width
            }
        }
        if !isSideBySide {
            if let text {
                styledText = styled(runs, c.textProperties, width: textWidth)
                textMetrics = styledText?.metrics
                    ?? measurer.measure(request(text, textFont, c.textProperties), width: textWidth)
            }
            if let secondary {
                secondaryStyledText = styled(secondaryRuns, c.secondaryTextProperties, width: textWidth)
                secondaryMetrics = secondaryStyledText?.metrics
                    ?? measurer.measure(request(secondary, secondaryTextFont, c.secondaryTextProperties), width: textWidth)
            }
        }
        // Shrunk text sits centred in the box of its unshrunk line (as a label centres it).
        var textInset = 0.0, secondaryInset = 0.0
        if let h = textLineHeight, let t = textMetrics, h > t.size.height {
            textInset = (h - t.size.height) / 2
            textMetrics?.size.height = h
        }
        if let h = secondaryLineHeight, let s = secondaryMetrics, h > s.size.height {
            secondaryInset = (h - s.size.height) / 2
            secondaryMetrics?.size.height = h
        }

        // Vertical placement.
        var textBlockHeight = 0.0
        var textY = 0.0, secondaryY = 0.0
        if isSideBySide, let t = textMetrics, let s = secondaryMetrics {
            let baseline = max(t.firstBaseline, s.firstBaseline)
            textY = baseline - t.firstBaseline
            secondaryY = baseline - s.firstBaseline
            textBlockHeight = max(textY + t.size.height, secondaryY + s.size.height)
        } else {
            if let t = textMetrics { textBlockHeight = t.size.height }
            if let s = secondaryMetrics {
                secondaryY = textMetrics == nil ? 0 : textBlockHeight + c.textToSecondaryTextVerticalPadding
                textBlockHeight = secondaryY + s.size.height
            }
        }

        let top = margins.top
        var contentHeight: Double
        var imageAreaY = top, textBlockY = top
        if hasImage && accessibility {
            let gap = textBlockHeight > 0 ? min(c.imageToTextPadding, 8) : 0
            contentHeight = reserved.height + gap + textBlockHeight
            textBlockY = top + reserved.height + gap
        } else {
            contentHeight = max(hasImage ? reserved.height : 0, textBlockHeight)
            if !c.style.isHeaderOrFooter {
                contentHeight = max(contentHeight, Self.minimumCellHeight(for: traits.preferredContentSizeCategory)
                                        - margins.top - margins.bottom)
            }
            imageAreaY = top + (contentHeight - reserved.height) / 2
            textBlockY = top + (contentHeight - textBlockHeight) / 2
        }

        let scale = max(1, traits.displayScale)
        let height = ((margins.top + contentHeight + margins.bottom) * scale).rounded(.up) / scale
        size = Size(width: width, height: height)

        if hasImage {
            let area = Rect(x: contentLeft, y: imageAreaY, width: reserved.width, height: reserved.height)
            imageLayoutFrame = area
            imageFrame = Rect(x: area.midX - imageSize.width / 2, y: area.midY - imageSize.height / 2,
                              width: imageSize.width, height: imageSize.height)
        }
        if let t = textMetrics {
            let w = isSideBySide ? t.size.width : textWidth
            textFrame = Rect(x: textX, y: textBlockY + textY + textInset, width: w, height: t.size.height - 2 * textInset)
        }
        if let s = secondaryMetrics {
            secondaryTextFrame = Rect(x: secondaryX, y: textBlockY + secondaryY + secondaryInset, width: secondaryWidth,
                                      height: s.size.height - 2 * secondaryInset)
        }

        if traits.layoutDirection == .rightToLeft {
            imageFrame = imageFrame?.mirrored(inWidth: width)
            imageLayoutFrame = imageLayoutFrame?.mirrored(inWidth: width)
            textFrame = textFrame?.mirrored(inWidth: width)
            secondaryTextFrame = secondaryTextFrame?.mirrored(inWidth: width)
        }
    }
}
