import SurveyCore

// A `paneldynamic`'s members read beside its template: `templateVisibleIf` (which panels show) and
// `panelCountExpression` (recorded for the data shape).

extension Converter {
    /// `paneldynamic` → `repeat` (``repeatGroup(_:itemsKey:dynamicMatrix:)``), its
    /// `templateVisibleIf` as the repeat's `instanceVisibleIf`: survey-core hides a panel where it
    /// does not hold (`{panelIndex}`, `{panel.x}` and the survey's names read as in the template's
    /// conditions); nothing in a hidden panel is required or checked, its values stay, and
    /// `{visiblePanelIndex}` counts the panels shown (-1 in a hidden one).
    mutating func dynamicPanel(_ members: inout Members, id: String) -> ConvertedKind {
        let path = members.path("templateVisibleIf")
        let condition = expression(members.take("templateVisibleIf"), path)?.stringValue
        var kind = repeatGroup(&members, itemsKey: "templateElements", dynamicMatrix: false)
        if let condition {
            // The engine's own functions evaluate it: a call of the app's function is null, as in items.
            noteHostFunctions(in: condition, at: path, pluginsMayProvide: false)
            kind.options["instanceVisibleIf"] = .string(Self.nullingUnknownCalls(in: condition))
        }
        // survey-core's data holds the panels a panelCountExpression gives, empty (the data shape).
        if kind.options["count"]?.stringValue != nil { dataShape.countedPanels.append(id) }
        return kind
    }
}
