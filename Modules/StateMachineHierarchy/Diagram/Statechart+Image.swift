import StateMachineSupport

/// Why a diagram could not be rendered as an image: Graphviz's `dot` is missing, failed or
/// took too long. `description` says which, and how to install Graphviz when it is missing.
public typealias GraphvizError = StateMachineSupport.GraphvizError

extension Statechart {
    /// The chart's diagram (``dot()``) rendered by Graphviz as SVG: UTF-8 text, an `<svg>`
    /// element naming every state. Runs Graphviz's `dot` program (Debian's `graphviz`
    /// package) once, for at most 30 seconds; costs what `dot` costs, well under a second
    /// for charts of tens of states.
    /// - Throws: ``GraphvizError`` when `dot` is not installed, fails or runs too long.
    public func svg() throws(GraphvizError) -> [UInt8] {
        try Graphviz.render(dot(), as: .svg)
    }

    /// The chart's diagram (``dot()``) rendered by Graphviz as a PNG image, as ``svg()`` does.
    /// - Throws: ``GraphvizError`` when `dot` is not installed, fails or runs too long.
    public func png() throws(GraphvizError) -> [UInt8] {
        try Graphviz.render(dot(), as: .png)
    }
}
