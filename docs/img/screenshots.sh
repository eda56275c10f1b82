#!/bin/sh
# Regenerates the pictures of docs/img from this build: the SVG trees, and the tree pages
# photographed at 1280 x 720 in headless Chromium (Debian's chromium package).
# Run from the repository's root: sh docs/img/screenshots.sh
set -eu
cargo build --release --quiet
cspkit=${CARGO_TARGET_DIR:-target}/release/cspkit
out=docs/img
pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome)

shot() { # shot PAGE SUFFIX PICTURE
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=1280,720 --virtual-time-budget=3000 \
        --screenshot="$out/$3" "file://$pages/$1$2" 2>/dev/null
}

$cspkit queens 4 --count --branching dway --propagation none --tree $out/queens4-dway-none.svg >/dev/null
$cspkit queens 4 --count --tree $out/queens4-tree.svg >/dev/null
# A slide (1920 x 1080, the default --tree-size): 8-Queens by plain backtracking, 877 tree
# nodes, the failed subtrees beside the path to the solution drawn as counted triangles.
$cspkit queens 8 --branching dway --propagation none --tree $out/slide-queens8.svg >/dev/null
printf '<body style="margin:0"><img src="%s" style="width:100vw;height:100vh">' \
    "file://$PWD/$out/slide-queens8.svg" >"$pages/slide.html"
shot slide.html '' slide-queens8.png

# 4-Queens, d-way, no propagation (60 tree nodes): the third failure, two queens clashing.
$cspkit queens 4 --count --branching dway --propagation none --tree "$pages/q4.html" >/dev/null
shot q4.html '?keys=fff' queens4-dway-page.png
# A Sudoku without propagation (2,644 tree nodes): a failure and the cells that clash.
$cspkit sudoku samples/sudoku/2239.txt --propagation none --tree "$pages/sudoku.html" >/dev/null
shot sudoku.html '?keys=fff' sudoku-page.png
# Two strategies side by side: no propagation against forward checking on 6-Queens.
$cspkit compare queens 6 --var-order input --value-order asc --propagation none,forward \
    --tree "$pages/compare.html" >/dev/null
shot compare.html '?keys=RR' compare-page.png
# A MiniZinc model through `cspkit mzn` (needs minizinc): Futoshiki at forward checking, its
# output array x as the board, at its second failure.
$cspkit mzn samples/minizinc/futoshiki.mzn samples/minizinc/futoshiki.dzn --propagation forward \
    --tree "$pages/futoshiki.html" >/dev/null
shot futoshiki.html '?keys=ff' futoshiki-page.png
# AC-3 on 4-Queens, on the constraint graph: after row 1 = 1, the arc (row 4, row 1) revised.
$cspkit queens 4 --propagation ac3 --ac3-page "$pages/ac3.html" >/dev/null
shot ac3.html '?keys=brrr' ac3-graph-page.png
# The pages as they open: 8-Queens by plain backtracking (877 tree nodes), the Sudoku without
# propagation (2,644), and 8-Queens plain backtracking against forward checking.
$cspkit queens 8 --branching dway --propagation none --tree "$pages/q8.html" >/dev/null
shot q8.html '' page-queens8.png
shot sudoku.html '' page-sudoku.png
$cspkit compare queens 8 --var-order input --value-order asc --branching dway \
    --propagation none,fc --tree "$pages/compare8.html" >/dev/null
shot compare8.html '' compare.png
