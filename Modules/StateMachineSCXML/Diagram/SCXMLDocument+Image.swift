import StateMachineHierarchy
import StateMachineSupport

extension SCXMLDocument {
    /// The document's diagram (``dot()``) rendered by Graphviz as SVG, as
    /// `Statechart/svg()` renders a chart.
    /// - Throws: `GraphvizError` when `dot` is not installed, fails or runs too long.
    public func svg() throws(GraphvizError) -> [UInt8] {
        try Graphviz.render(dot(), as: .svg)
    }

    /// The document's diagram (``dot()``) rendered by Graphviz as a PNG image.
    /// - Throws: `GraphvizError` when `dot` is not installed, fails or runs too long.
    public func png() throws(GraphvizError) -> [UInt8] {
        try Graphviz.render(dot(), as: .png)
    }
}

extension SCXMLDocument {
    /// The page `Statechart/stepThroughPage(_:)` writes, for a run of this document.
    /// - Throws: `GraphvizError` when Graphviz cannot render the diagram.
    public func stepThroughPage(_ trace: StatechartTrace) throws(GraphvizError) -> String {
        try StepThroughPage.html(title: trace.chart, diagram: diagram, steps: trace.pageSteps, prefixMatching: true)
    }
}
