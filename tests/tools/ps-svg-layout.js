// ps-svg-layout.js: run in headless Chromium on a copy of a report page
// (tests/lib.sh chromium_layout): measures every text of every chart as
// the browser laid it out (getBBox, the font it really used) and writes
// one line into <pre id="layout">: the background of the history's line
// (p.since, "none" when there is none), how many texts, how many fall
// outside their chart's picture (clipped), and how many of a chart's
// legend entries and row labels overlap one another, each named.
(function () {
	var texts = 0, outside = [], overlap = [];
	var svgs = document.querySelectorAll("svg.ps-chart");
	function box(e) {
		var b = e.getBBox();
		return { x0: b.x, x1: b.x + b.width, y0: b.y, y1: b.y + b.height };
	}
	function hits(a, b) {
		return a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 &&
			a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5;
	}
	for (var i = 0; i < svgs.length; i++) {
		var svg = svgs[i], vb = svg.viewBox.baseVal;
		var ts = svg.querySelectorAll("text");
		for (var k = 0; k < ts.length; k++) {
			var t = ts[k], b;
			if (t.hasAttribute("transform"))
				continue; // the y axis's label, turned
			texts++;
			b = box(t);
			if (b.x0 < -0.5 || b.x1 > vb.width + 0.5 ||
			    b.y0 < -0.5 || b.y1 > vb.height + 0.5)
				outside.push(svg.id + " \"" + t.textContent +
					"\" x " + b.x0.toFixed(1) + ".." +
					b.x1.toFixed(1) + " of " + vb.width);
		}
		var items = svg.querySelectorAll(
			"rect.legend, text.legend-label, text.row-label");
		for (var a = 0; a < items.length; a++)
			for (var c = a + 1; c < items.length; c++)
				if (hits(box(items[a]), box(items[c])))
					overlap.push(svg.id + " \"" +
						(items[a].textContent || "square") +
						"\" and \"" +
						(items[c].textContent || "square") + "\"");
	}
	// the history's line: styled (its background), or "none"
	var since = document.querySelector("p.since");
	var styled = since ? getComputedStyle(since).backgroundColor : "none";
	var pre = document.createElement("pre");
	pre.id = "layout";
	pre.textContent = "since " + styled + "; texts " + texts +
		"; outside " + outside.length +
		"; overlapping " + overlap.length + (outside.length +
		overlap.length ? ": " + outside.concat(overlap).join("; ") : "");
	document.body.appendChild(pre);
})();
