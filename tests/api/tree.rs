//! The recorded search tree and its drawings: node counts against the solver's statistics,
//! SVG that is well-formed XML with the expected numbers of nodes of each kind, DOT with one
//! line per node and edge (rendered by Graphviz when it is installed).

use std::process::Command;

use cspkit::models::queens::Queens;
use cspkit::teach::tree::{NodeStatus, SearchTree};
use cspkit::teach::{dot, svg};
use cspkit::{Branching, Model, PropagationLevel, SearchStats};

fn recorded(
    model: &Model,
    level: PropagationLevel,
    branching: Branching,
) -> (SearchTree<'_>, SearchStats) {
    let mut tree = SearchTree::new(model).with_domains(true);
    let mut solver = model
        .solver()
        .with_propagation(level)
        .with_branching(branching)
        .with_observer(&mut tree);
    solver.count();
    let stats = solver.stats();
    drop(solver);
    (tree, stats)
}

fn count(tree: &SearchTree<'_>, wanted: fn(&NodeStatus) -> bool) -> u64 {
    tree.nodes().iter().filter(|n| wanted(&n.status)).count() as u64
}

/// A small XML well-formedness check: every tag closed in order, attributes quoted, and
/// nothing but entities after an ampersand.
fn assert_well_formed(xml: &str) {
    let mut open: Vec<String> = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "a bare ampersand in {:?}",
                &entity[..entity.len().min(20)]
            );
        }
        let end = rest[start..].find('>').expect("a tag is closed") + start;
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop().as_deref(), Some(name.trim()), "closing {name}");
        } else if tag.ends_with('/') || tag.starts_with('!') || tag.starts_with('?') {
            continue;
        } else {
            assert_eq!(
                tag.matches('"').count() % 2,
                0,
                "unbalanced quotes in <{tag}>"
            );
            let name = tag.split_whitespace().next().expect("a tag name");
            open.push(name.to_owned());
        }
    }
    assert!(open.is_empty(), "unclosed: {open:?}");
}

#[test]
fn the_tree_holds_every_node_the_search_made() {
    let queens = Queens::new(6).unwrap();
    for level in [
        PropagationLevel::None,
        PropagationLevel::Forward,
        PropagationLevel::Full,
    ] {
        for branching in [Branching::Assign, Branching::DWay, Branching::Split] {
            let (tree, stats) = recorded(queens.model(), level, branching);
            let refutations = if branching == Branching::DWay {
                0
            } else {
                stats.backtracks
            };
            assert_eq!(stats.refutations, refutations, "{level:?} {branching:?}");
            assert_eq!(tree.nodes().len() as u64, stats.tree_nodes());
            assert_eq!(stats.tree_nodes(), 1 + stats.decisions + refutations);
            assert_eq!(
                count(&tree, |s| matches!(s, NodeStatus::Failed { .. })),
                stats.failures
            );
            assert_eq!(count(&tree, |s| *s == NodeStatus::Solution), 4);
            // A node's domains are its parent's, narrowed.
            for (id, node) in tree.nodes().iter().enumerate().skip(1) {
                let (here, parent) = (
                    tree.domains_at(id as u64),
                    tree.domains_at(node.parent.unwrap()),
                );
                for (d, p) in here.iter().zip(&parent) {
                    assert!(
                        d.iter().all(|v| p.contains(v)),
                        "node {id}: {d} not within {p}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_svg_is_well_formed_and_draws_each_kind_of_node() {
    let queens = Queens::new(4).unwrap();
    for level in [PropagationLevel::None, PropagationLevel::Forward] {
        let (tree, stats) = recorded(queens.model(), level, Branching::Assign);
        let picture = svg::render(&tree, svg::DEFAULT_BUDGET);
        assert_well_formed(&picture);
        assert_eq!(
            picture.matches("class=\"node failed\"").count() as u64,
            stats.failures
        );
        assert_eq!(picture.matches("class=\"node solution\"").count(), 2);
        let drawn = picture.matches("<circle").count() as u64;
        assert_eq!(drawn, stats.tree_nodes(), "every node drawn");
        assert_eq!(picture.matches("<polygon").count(), 0, "nothing collapsed");
    }
}

#[test]
fn a_large_tree_collapses_what_does_not_fit_into_counted_triangles() {
    let queens = Queens::new(8).unwrap();
    let (tree, _) = recorded(queens.model(), PropagationLevel::None, Branching::Assign);
    let picture = svg::render(&tree, 60);
    assert_well_formed(&picture);
    let circles = picture.matches("<circle").count();
    let triangles = picture.matches("<polygon").count();
    assert!(
        triangles > 0 && circles + triangles <= 60,
        "{circles} + {triangles}"
    );
    // The counts under the triangles and the nodes drawn add up to the whole tree.
    let hidden: u64 = picture
        .split("<text class=\"count\"")
        .skip(1)
        .map(|s| {
            let text = &s[s.find('>').unwrap() + 1..];
            text[..text.find('<').unwrap()].parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(
        circles as u64 + triangles as u64 + hidden,
        tree.nodes().len() as u64
    );
}

#[test]
fn dot_has_a_line_per_node_and_per_edge_and_graphviz_draws_it() {
    let queens = Queens::new(5).unwrap();
    let (tree, _) = recorded(queens.model(), PropagationLevel::Forward, Branching::Assign);
    let text = dot::render(&tree);
    let nodes = text
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('n') && l[1..].starts_with(|c: char| c.is_ascii_digit()))
        .filter(|l| !l.contains("->"))
        .count();
    let edges = text.matches(" -> ").count();
    assert_eq!(nodes, tree.nodes().len());
    assert_eq!(edges, tree.nodes().len() - 1);
    let rendered = Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = rendered else {
        if std::env::var_os("CSPKIT_REQUIRE_GRAPHVIZ").is_some() {
            panic!("Graphviz's dot is required here (CSPKIT_REQUIRE_GRAPHVIZ) but was not found");
        }
        crate::common::skipped(
            "rendering DOT with Graphviz (dot not found; install Debian's graphviz package; \
             .ci/run does)",
        );
        return;
    };
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let drawn = String::from_utf8_lossy(&output.stdout);
    assert_eq!(drawn.matches("class=\"node\"").count(), tree.nodes().len());
}

/// Past its node limit the recorder stops asking for propagation events: the engine then
/// spends nothing on it at each node, while the overview still counts every node.
#[test]
fn a_tree_past_its_limit_stops_observing_propagation() {
    use cspkit::SearchObserver;
    let queens = Queens::new(8).unwrap();
    let mut tree = SearchTree::new(queens.model())
        .with_domains(true)
        .with_limit(10);
    assert!(tree.observes_propagation());
    let mut solver = queens.model().solver().with_observer(&mut tree);
    let _ = solver.count();
    let made = solver.stats().tree_nodes();
    drop(solver);
    assert_eq!(tree.nodes().len(), 10);
    assert_eq!(tree.overview().nodes(), made);
    assert!(!tree.observes_propagation());
    // The recorded nodes kept their domains: node 1 (row 1 = 1) fixed row 1.
    let changes = &tree.nodes()[1].changes;
    assert!(
        changes
            .iter()
            .any(|(var, d)| *var == queens.rows()[0] && d.value() == Some(1))
    );
}

/// The domains a node records are those that differ from its parent's, read from the events:
/// rebuilding them along the path gives the domains the solver had at each solution.
#[test]
fn recorded_changes_rebuild_the_domains_of_every_solution() {
    let queens = Queens::new(6).unwrap();
    let mut tree = SearchTree::new(queens.model()).with_domains(true);
    let mut solver = queens.model().solver().with_observer(&mut tree);
    let mut solutions = Vec::new();
    while let cspkit::Outcome::Solved(solution) = solver.next_solution() {
        solutions.push(solution.values().to_vec());
    }
    drop(solver);
    let rebuilt: Vec<Vec<i32>> = tree
        .nodes()
        .iter()
        .enumerate()
        .filter(|(_, n)| n.status == NodeStatus::Solution)
        .map(|(id, _)| {
            tree.domains_at(id as u64)
                .iter()
                .map(|d| d.value().expect("fixed at a solution"))
                .collect()
        })
        .collect();
    assert_eq!(rebuilt, solutions);
}

/// An observer that counts the propagation events the engine sends.
#[derive(Default)]
struct Prunings(u64);

impl cspkit::SearchObserver for Prunings {
    fn event(&mut self, event: &cspkit::Event<'_>) {
        if matches!(event, cspkit::Event::Pruned { .. }) {
            self.0 += 1;
        }
    }
}

/// A trace past its line limit stops asking for propagation events (the engine then copies
/// no domain for it at each propagator run), and its last line still counts what it cut.
#[test]
fn a_trace_past_its_limit_stops_observing_propagation_and_counts_what_it_cut() {
    use cspkit::SearchObserver;
    use cspkit::teach::trace::Trace;
    let queens = Queens::new(8).unwrap();
    let mut out = Vec::new();
    let mut trace = Trace::new(queens.model(), &mut out).with_limit(5);
    let mut prunings = Prunings::default();
    let mut both = (&mut trace, &mut prunings);
    let mut solver = queens.model().solver().with_observer(&mut both);
    let count = solver.count().solutions;
    let stats = solver.stats();
    drop(solver);
    assert!(trace.is_cut());
    assert!(!trace.observes_propagation());
    // The prunings of the first few nodes only, not those of the whole search.
    let mut all = Prunings::default();
    let _ = queens
        .model()
        .solver()
        .with_observer(&mut (&mut all, CountsPropagation))
        .count();
    assert!(prunings.0 * 10 < all.0, "{} of {}", prunings.0, all.0);
    trace.finish().unwrap();
    let text = String::from_utf8(out).unwrap();
    let last = text.lines().last().unwrap();
    assert!(last.contains(&format!("{count} solutions")), "{last}");
    assert!(stats.failures > 0 && last.contains(&format!("{} failures", stats.failures)));
}

/// Asks for propagation events.
struct CountsPropagation;

impl cspkit::SearchObserver for CountsPropagation {
    fn observes_propagation(&self) -> bool {
        true
    }
}

/// Records the tree and, beside it, the events' own account of each backjump.
struct Jumps<'m> {
    tree: SearchTree<'m>,
    /// Per backjump: the failed node, the conflict set, the variables jumped over.
    events: Vec<(u64, Vec<cspkit::VarId>, Vec<cspkit::VarId>)>,
}

impl cspkit::SearchObserver for Jumps<'_> {
    fn on_event(&mut self, event: &cspkit::Event<'_>) {
        if let cspkit::Event::Backjump {
            node,
            conflict,
            skipped,
            ..
        } = *event
        {
            self.events
                .push((node, conflict.to_vec(), skipped.to_vec()));
        }
        self.tree.on_event(event);
    }
}

#[test]
fn each_backjump_is_placed_on_the_decisions_of_the_tree() {
    let queens = Queens::new(8).unwrap();
    for branching in [Branching::Assign, Branching::DWay, Branching::Split] {
        let mut jumps = Jumps {
            tree: SearchTree::new(queens.model()).with_limit(usize::MAX),
            events: Vec::new(),
        };
        let mut solver = queens
            .model()
            .solver()
            .with_propagation(cspkit::Propagation::TextbookForward)
            .with_branching(branching)
            .with_backjumping(true)
            .with_observer(&mut jumps);
        solver.count();
        let stats = solver.stats();
        drop(solver);
        let marks = jumps.tree.backjumps();
        assert_eq!(marks.len(), jumps.events.len(), "{branching:?}");
        let jumped = marks.iter().filter(|m| !m.skipped.is_empty()).count() as u64;
        assert_eq!(jumped, stats.backjumps, "{branching:?}");
        let skipped: u64 = marks.iter().map(|m| m.skipped.len() as u64).sum();
        assert_eq!(skipped, stats.levels_skipped, "{branching:?}");
        let nodes = jumps.tree.nodes();
        let var = |v: u64| nodes[v as usize].branch.expect("a decision").var;
        for (mark, (node, conflict, vars)) in marks.iter().zip(&jumps.events) {
            assert_eq!(mark.node, *node);
            assert_eq!(&mark.conflict, conflict);
            // Each node jumped over is a decision on the variable the event names, on the
            // path to the failure, deepest first.
            let on: Vec<_> = mark.skipped.iter().map(|&s| var(s)).collect();
            assert_eq!(&on, vars, "{branching:?} at node {node}");
            assert!(mark.skipped.windows(2).all(|w| w[0] > w[1]));
            let mut path = Vec::new();
            let mut at = Some(*node);
            while let Some(v) = at {
                path.push(v);
                at = nodes[v as usize].parent;
            }
            assert!(mark.skipped.iter().all(|s| path.contains(s)));
            // The decision gone back to: on the conflict set's deepest variable, above them.
            if let Some(to) = mark.to {
                assert!(path.contains(&to));
                assert_eq!(Some(&var(to)), conflict.last());
                assert!(mark.skipped.iter().all(|&s| s > to));
            }
        }
    }
}
