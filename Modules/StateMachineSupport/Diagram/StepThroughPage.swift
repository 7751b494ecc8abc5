// One self-contained HTML page that steps through a recorded run of a chart: the chart's
// SVG (rendered by Graphviz from its diagram, with an id on every state and arrow), the
// list of steps, and buttons and arrow keys that move between them. Everything is inline:
// the SVG, the styles, the steps as JSON and the script; the page loads nothing.
//
// What is highlighted at a step: the states of the configuration after it, and the arrows
// the step took. A trace names states, not transitions, so an arrow counts as taken when
// its event matches the step's event (or one the step processed itself, an action line
// `event NAME`; by prefix for SCXML) and it leads from a state active before the step, or
// entered during it, to one active after it or entered during it (a pseudo state, never in
// a configuration, matches either end; a loop only from a state active before the step); an
// arrow without an event counts when the step entered its target.
//
// Beside the picture: each step's event, exits, entries, actions (the executable content
// that ran) and the variables after it, those the step changed highlighted. The picture is
// shown at its own size (Graphviz's points), where its labels read as Graphviz wrote them,
// in a pane that scrolls; buttons, `+`/`-`/`0`/`1` and Ctrl with the wheel zoom it, dragging
// pans it, and each step scrolls what it highlighted into view. The picture's overflow is
// visible, so that a highlighted (bold) label is never clipped at its edge.
//
// `#step=N` at the end of the page's address opens it at step N. For tests in a browser,
// `#selftest` makes the script step forward through every step (with the Forward button
// and the right arrow key in turn), then back to the first (Back and the left arrow), and
// write what was highlighted after each move into `<pre id="selftest">` as JSON:
// `{"forward": [{"step": i, "states": [...], "transitions": [[source, target], ...],
// "variables": ["name = JSON", ...], "changed": [name, ...], "cut": [label, ...]}, ...],
// "back": [...], "labelHeight": px, "zoom": [width, width after one zoom in]}`, where `cut`
// lists highlighted labels not shown whole and `labelHeight` is the smallest arrow label's
// height at the default zoom.

/// One step of a recorded run, as the page shows it.
package struct TracePageStep: Sendable, Equatable {
    /// The event the step handled; nil for the start, or a step no event started.
    package var event: String?
    /// The states the step exited, in order.
    package var exited: [String]
    /// The states it entered, in order.
    package var entered: [String]
    /// What else it did (internal transitions, raised or logged lines).
    package var actions: [String]
    /// The active states after the step.
    package var configuration: [String]
    /// The variables after the step, each as JSON text (`"7"`, `null`); nil for a chart
    /// without data.
    package var variables: [String: String]?

    /// A step.
    package init(
        event: String?,
        exited: [String],
        entered: [String],
        actions: [String],
        configuration: [String],
        variables: [String: String]? = nil
    ) {
        self.event = event
        self.exited = exited
        self.entered = entered
        self.actions = actions
        self.configuration = configuration
        self.variables = variables
    }
}

/// Writes the step-through page.
package enum StepThroughPage {
    /// The page for `steps` of a run of the machine `diagram` draws, titled `title`; with
    /// `prefixMatching` (SCXML's), an arrow's event matches the names it is a prefix of up to
    /// a `.` (and `*` every name), as the chart matched them, else only its own name.
    /// - Throws: ``GraphvizError`` when Graphviz cannot render the diagram.
    package static func html(
        title: String,
        diagram: Diagram,
        steps: [TracePageStep],
        prefixMatching: Bool = false
    ) throws(GraphvizError) -> String {
        let drawing = diagram.dotWithElementIDs()
        let image = String(decoding: try Graphviz.render(drawing.text, as: .svg), as: UTF8.self)
        // The <svg> element alone: the XML declaration and DOCTYPE may not appear in HTML.
        let svg = image.firstRange(of: "<svg").map { String(image[$0.lowerBound...]) } ?? image
        let pseudo = Set(diagram.vertexIDs.filter { diagram.vertex($0).map(isPseudo) ?? false })
        var data = "{\"title\":\(json(title)),\"prefixMatching\":\(prefixMatching),\"states\":{"
        data += drawing.states.sorted { $0.key < $1.key }.map { "\(json($0.key)):\(json($0.value))" }
            .joined(separator: ",")
        data += "},\"pseudo\":[" + pseudo.sorted().map(json).joined(separator: ",") + "],\"transitions\":["
        data += drawing.transitions.map { id, transition in
            "{\"id\":\(json(id)),\"source\":\(json(transition.source)),\"target\":\(json(transition.target)),"
                + "\"events\":[\(transition.events.map(json).joined(separator: ","))]}"
        }.joined(separator: ",")
        data += "],\"steps\":["
        data += steps.map { step in
            // Variables as [name, JSON text] pairs sorted by name: the page shows the text as
            // `statechart run` prints it.
            let variables = step.variables.map { variables in
                "[" + variables.keys.sorted().map { "[\(json($0)),\(json(variables[$0]!))]" }.joined(separator: ",")
                    + "]"
            }
            return "{\"event\":\(step.event.map(json) ?? "null"),\"exited\":\(json(step.exited)),"
                + "\"entered\":\(json(step.entered)),\"actions\":\(json(step.actions)),"
                + "\"configuration\":\(json(step.configuration)),\"variables\":\(variables ?? "null")}"
        }.joined(separator: ",")
        data += "]}"
        return page(title: title, svg: svg, data: data)
    }

    private static func isPseudo(_ vertex: Diagram.Vertex) -> Bool {
        switch vertex.kind {
        case .history, .fork, .join, .junction: true
        case .simple, .composite, .parallel, .final: false
        }
    }

    /// `text` as a JSON string, safe inside a `<script>` element (no `</` in it).
    package static func json(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                result += "\\u" + hex4(scalar.value)
            default:
                if scalar.value < 0x20 {
                    result += "\\u" + hex4(scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    private static func json(_ texts: [String]) -> String {
        "[" + texts.map(json).joined(separator: ",") + "]"
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func page(title: String, svg: String, data: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
        <title>\(markupEscaped(title))</title>
        <style>
        body { font-family: Helvetica, Arial, sans-serif; margin: 0; display: flex; flex-direction: column; height: 100vh; }
        header { padding: 8px 16px; border-bottom: 1px solid #ccc; display: flex; gap: 12px; align-items: center; }
        header h1 { font-size: 18px; margin: 0 16px 0 0; }
        button { font-size: 14px; padding: 4px 12px; }
        #position { font-weight: bold; }
        main { display: flex; flex: 1; min-height: 0; }
        #diagram { flex: 3; overflow: auto; padding: 24px; cursor: grab; position: relative; }
        #diagram.dragging { cursor: grabbing; user-select: none; }
        #diagram svg { overflow: visible; display: block; }
        #zoom { margin-left: auto; display: flex; gap: 4px; align-items: center; }
        #zoom-level { min-width: 48px; text-align: center; }
        #variables td { padding: 1px 6px; font-family: Menlo, Consolas, monospace; }
        #variables tr.changed td { background: #ffe08a; font-weight: bold; }
        aside { flex: 1; min-width: 260px; border-left: 1px solid #ccc; overflow: auto; padding: 8px 16px; font-size: 13px; }
        #steps { padding-left: 24px; }
        #steps li { cursor: pointer; padding: 2px 4px; }
        #steps li.current { background: #ffe08a; font-weight: bold; }
        #details dt { font-weight: bold; margin-top: 6px; }
        #details dd { margin-left: 12px; }
        .active > polygon, .active > ellipse, .active > path { stroke: #c0392b; stroke-width: 3px; }
        .node.active > polygon, .node.active > ellipse, .node.active > path { fill: #fde2dd; }
        .cluster.active > polygon { fill: #fff4f2; }
        .taken > path { stroke: #c0392b; stroke-width: 3px; }
        .taken > polygon { stroke: #c0392b; fill: #c0392b; }
        .taken > text { fill: #c0392b; font-weight: bold; }
        #selftest { display: none; }
        </style>
        </head>
        <body>
        <header>
        <h1>\(markupEscaped(title))</h1>
        <button id="first" title="First step (Home)">&#x00AB; First</button>
        <button id="back" title="Step back (Left arrow)">&#x25C0; Back</button>
        <button id="forward" title="Step forward (Right arrow)">Forward &#x25B6;</button>
        <button id="last" title="Last step (End)">Last &#x00BB;</button>
        <span id="position"></span>
        <span id="zoom"><button id="zoom-out" title="Zoom out (-)">&#x2212;</button><span id="zoom-level">100%</span><button id="zoom-in" title="Zoom in (+)">+</button><button id="zoom-fit" title="Fit the chart in the pane (0)">Fit</button><button id="zoom-reset" title="Actual size (1)">1:1</button></span>
        </header>
        <main>
        <div id="diagram">
        \(svg)
        </div>
        <aside>
        <dl id="details"></dl>
        <h2>Variables</h2>
        <table id="variables"></table>
        <h2>Steps</h2>
        <ol id="steps" start="0"></ol>
        </aside>
        </main>
        <pre id="selftest"></pre>
        <script type="application/json" id="trace">\(data)</script>
        <script>
        \(script)
        </script>
        </body>
        </html>

        """
    }

    /// The page's script: plain DOM calls, no library.
    private static let script = """
        "use strict";
        const trace = JSON.parse(document.getElementById("trace").textContent);
        const names = {};
        for (const [name, id] of Object.entries(trace.states)) names[id] = name;
        const pseudo = new Set(trace.pseudo);
        const pane = document.getElementById("diagram");
        const svg = pane.querySelector("svg");
        let current = 0;
        // Whether the descriptor `d` takes the event `name`: equal, or with SCXML's matching a
        // prefix of it up to a '.' ('a.*' and 'a.' mean 'a'), '*' taking every name.
        function matchesEvent(d, name) {
          if (d === name) return true;
          if (!trace.prefixMatching) return false;
          const descriptor = d.replace(/\\.\\*$/, "").replace(/\\.+$/, "");
          return descriptor === "" || descriptor === "*" || name.startsWith(descriptor + ".");
        }
        function label(step) { return step.event === null ? (step === trace.steps[0] ? "start" : "(no event)") : step.event; }
        function takenTransitions(index) {
          const step = trace.steps[index];
          const entered = new Set(step.entered);
          const previous = new Set(index > 0 ? trace.steps[index - 1].configuration : []);
          const before = new Set([...previous, ...entered, ...pseudo]);
          const after = new Set([...step.configuration, ...entered, ...pseudo]);
          const events = new Set(step.actions.filter(a => a.startsWith("event ")).map(a => a.slice(6)));
          if (step.event !== null) events.add(step.event);
          return trace.transitions.filter(t => {
            const matches = t.events.length === 0 ? entered.has(t.target) : t.events.some(d => [...events].some(n => matchesEvent(d, n)));
            // A loop is taken from a state that was active already, not one the step entered.
            return matches && (t.source === t.target ? previous.has(t.source) : before.has(t.source)) && after.has(t.target);
          });
        }
        // The names whose value differs from the step before (none at the start).
        function changedVariables(index) {
          const now = trace.steps[index].variables;
          if (now === null || index === 0) return new Set();
          const before = new Map(trace.steps[index - 1].variables || []);
          return new Set(now.filter(([name, value]) => before.get(name) !== value).map(([name]) => name));
        }
        function showVariables(index) {
          const table = document.getElementById("variables");
          table.replaceChildren();
          const variables = trace.steps[index].variables;
          const changed = changedVariables(index);
          for (const [name, value] of variables === null ? [["(no data model)", ""]] : variables) {
            const row = document.createElement("tr");
            if (changed.has(name)) row.classList.add("changed");
            for (const text of [name, value === "" ? "" : "= " + value]) {
              const cell = document.createElement("td");
              cell.textContent = text;
              row.append(cell);
            }
            table.append(row);
          }
        }
        function show(index) {
          if (trace.steps.length === 0) { document.getElementById("position").textContent = "no steps recorded"; return; }
          current = Math.max(0, Math.min(index, trace.steps.length - 1));
          const step = trace.steps[current];
          for (const element of document.querySelectorAll(".active, .taken")) element.classList.remove("active", "taken");
          for (const name of step.configuration) {
            const element = trace.states[name] && document.getElementById(trace.states[name]);
            if (element) element.classList.add("active");
          }
          for (const t of takenTransitions(current)) {
            const element = document.getElementById(t.id);
            if (element) element.classList.add("taken");
          }
          document.getElementById("position").textContent = `Step ${current} of ${trace.steps.length - 1}: ${label(step)}`;
          const details = document.getElementById("details");
          details.replaceChildren();
          for (const [title, values] of [["Event", [label(step)]], ["Exited", step.exited], ["Entered", step.entered], ["Actions", step.actions], ["Active states", step.configuration]]) {
            const term = document.createElement("dt");
            term.textContent = title;
            const value = document.createElement("dd");
            value.textContent = values.length ? values.join(", ") : "none";
            details.append(term, value);
          }
          showVariables(current);
          document.querySelectorAll("#steps li").forEach((item, i) => item.classList.toggle("current", i === current));
          document.getElementById("back").disabled = current === 0;
          document.getElementById("first").disabled = current === 0;
          document.getElementById("forward").disabled = current === trace.steps.length - 1;
          document.getElementById("last").disabled = current === trace.steps.length - 1;
          // Bring what the step did into the pane (a zoomed-in chart scrolls to it).
          const focus = document.querySelector(".taken") || document.querySelector(".node.active");
          if (focus) focus.scrollIntoView({ block: "nearest", inline: "nearest" });
        }
        // Zoom: 1 is the chart's own size (Graphviz's points as CSS points), where its labels
        // read as Graphviz wrote them; the pane scrolls, and dragging it pans.
        const box = svg ? svg.viewBox.baseVal : null;
        let zoom = 1;
        function setZoom(value) {
          if (!svg || !box) return;
          zoom = Math.max(0.1, Math.min(value, 8));
          svg.setAttribute("width", `${box.width * zoom}pt`);
          svg.setAttribute("height", `${box.height * zoom}pt`);
          document.getElementById("zoom-level").textContent = `${Math.round(zoom * 100)}%`;
        }
        function fitZoom() {
          if (!box) return 1;
          const width = (pane.clientWidth - 48) * 0.75, height = (pane.clientHeight - 48) * 0.75;
          return Math.min(width / box.width, height / box.height, 1);
        }
        document.getElementById("zoom-in").addEventListener("click", () => setZoom(zoom * 1.25));
        document.getElementById("zoom-out").addEventListener("click", () => setZoom(zoom / 1.25));
        document.getElementById("zoom-fit").addEventListener("click", () => setZoom(fitZoom()));
        document.getElementById("zoom-reset").addEventListener("click", () => setZoom(1));
        pane.addEventListener("wheel", event => {
          if (!event.ctrlKey) return;
          event.preventDefault();
          setZoom(zoom * (event.deltaY < 0 ? 1.1 : 1 / 1.1));
        }, { passive: false });
        let drag = null;
        pane.addEventListener("mousedown", event => {
          drag = { x: event.clientX, y: event.clientY, left: pane.scrollLeft, top: pane.scrollTop };
          pane.classList.add("dragging");
        });
        window.addEventListener("mousemove", event => {
          if (!drag) return;
          pane.scrollLeft = drag.left - (event.clientX - drag.x);
          pane.scrollTop = drag.top - (event.clientY - drag.y);
        });
        window.addEventListener("mouseup", () => { drag = null; pane.classList.remove("dragging"); });
        setZoom(1);
        const list = document.getElementById("steps");
        trace.steps.forEach((step, i) => {
          const item = document.createElement("li");
          item.textContent = label(step) + (step.configuration.length ? " \\u2192 " + step.configuration.join(", ") : "");
          item.addEventListener("click", () => show(i));
          list.append(item);
        });
        document.getElementById("first").addEventListener("click", () => show(0));
        document.getElementById("back").addEventListener("click", () => show(current - 1));
        document.getElementById("forward").addEventListener("click", () => show(current + 1));
        document.getElementById("last").addEventListener("click", () => show(trace.steps.length - 1));
        document.addEventListener("keydown", event => {
          if (event.key === "ArrowRight") show(current + 1);
          else if (event.key === "ArrowLeft") show(current - 1);
          else if (event.key === "Home") show(0);
          else if (event.key === "End") show(trace.steps.length - 1);
          else if (event.key === "+" || event.key === "=") setZoom(zoom * 1.25);
          else if (event.key === "-") setZoom(zoom / 1.25);
          else if (event.key === "0") setZoom(fitZoom());
          else if (event.key === "1") setZoom(1);
          else return;
          event.preventDefault();
        });
        // Highlighted labels that do not show whole: clipped by the picture's edge (an <svg>
        // whose overflow is hidden) or beyond what the pane can scroll to.
        function cutLabels() {
          const clips = svg && getComputedStyle(svg).overflow !== "visible";
          const frame = svg ? svg.getBoundingClientRect() : null;
          const area = pane.getBoundingClientRect();
          const left = area.left - pane.scrollLeft, top = area.top - pane.scrollTop;
          return [...document.querySelectorAll(".taken > text, .active > text")].filter(text => {
            const r = text.getBoundingClientRect();
            const outsidePicture = clips && (r.left < frame.left - 0.5 || r.right > frame.right + 0.5 || r.top < frame.top - 0.5 || r.bottom > frame.bottom + 0.5);
            const outsidePane = r.left < left - 0.5 || r.top < top - 0.5 || r.right > left + pane.scrollWidth + 0.5 || r.bottom > top + pane.scrollHeight + 0.5;
            return outsidePicture || outsidePane;
          }).map(text => text.textContent.trim());
        }
        function highlighted() {
          const states = [...document.querySelectorAll(".active")].map(e => names[e.id]).filter(n => n !== undefined).sort();
          const transitions = [...document.querySelectorAll(".taken")].map(e => trace.transitions.find(t => t.id === e.id)).map(t => [t.source, t.target]);
          const variables = [...document.querySelectorAll("#variables tr")].filter(row => row.cells[1].textContent !== "").map(row => `${row.cells[0].textContent} ${row.cells[1].textContent}`);
          const changed = [...document.querySelectorAll("#variables tr.changed")].map(row => row.cells[0].textContent);
          return { step: current, states, transitions, variables, changed, cut: cutLabels() };
        }
        const start = /#step=(\\d+)/.exec(location.hash);
        show(start ? Number(start[1]) : 0);
        if (location.hash === "#selftest") {
          // The smallest label of an arrow at the default zoom, in CSS pixels.
          const heights = [...document.querySelectorAll(".edge text")].map(t => t.getBoundingClientRect().height);
          const labelHeight = heights.length ? Math.min(...heights) : null;
          const seen = [highlighted()];
          for (let i = 1; i < trace.steps.length; i++) {
            if (i % 2) document.getElementById("forward").click();
            else document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
            seen.push(highlighted());
          }
          const back = [];
          for (let i = trace.steps.length - 2; i >= 0; i--) {
            if (i % 2) document.getElementById("back").click();
            else document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft" }));
            back.push(highlighted());
          }
          const before = svg ? svg.getBoundingClientRect().width : 0;
          document.getElementById("zoom-in").click();
          const after = svg ? svg.getBoundingClientRect().width : 0;
          setZoom(1);
          document.getElementById("selftest").textContent = JSON.stringify({ forward: seen, back, labelHeight, zoom: [before, after] });
        }
        """
}
