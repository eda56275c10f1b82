//! Régin's algorithm on explicit adjacency lists, for value ranges wider than 64.

const NONE: u32 = u32::MAX;

/// `adjacency[x]` lists the value nodes (`0..values`) of variable `x`. Returns, for each
/// variable and each of its edges, whether the edge belongs to some maximum matching that
/// covers every variable, or `None` if no such matching exists.
pub(crate) fn regin(adjacency: &[Vec<u32>], values: usize) -> Option<Vec<Vec<bool>>> {
    let n = adjacency.len();
    if values < n {
        return None;
    }
    let mut mate = vec![NONE; n];
    let mut owner = vec![NONE; values];
    let mut visited = vec![false; values];
    for x in 0..n {
        visited.iter_mut().for_each(|v| *v = false);
        if !augment(x, adjacency, &mut mate, &mut owner, &mut visited) {
            return None;
        }
    }
    // Values that can reach a free value (see the small version).
    let mut reach_free: Vec<bool> = owner.iter().map(|&o| o == NONE).collect();
    loop {
        let mut changed = false;
        for x in 0..n {
            let m = mate[x] as usize;
            if !reach_free[m] && adjacency[x].iter().any(|&v| reach_free[v as usize]) {
                reach_free[m] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let component = components(adjacency, &owner, &reach_free);
    Some(
        adjacency
            .iter()
            .enumerate()
            .map(|(x, edges)| {
                let m = mate[x] as usize;
                edges
                    .iter()
                    .map(|&v| {
                        let v = v as usize;
                        v == m || reach_free[v] || (!reach_free[m] && component[v] == component[m])
                    })
                    .collect()
            })
            .collect(),
    )
}

fn augment(
    x: usize,
    adjacency: &[Vec<u32>],
    mate: &mut [u32],
    owner: &mut [u32],
    visited: &mut [bool],
) -> bool {
    for &v in &adjacency[x] {
        let v = v as usize;
        if visited[v] {
            continue;
        }
        visited[v] = true;
        if owner[v] == NONE || augment(owner[v] as usize, adjacency, mate, owner, visited) {
            owner[v] = x as u32;
            mate[x] = v as u32;
            return true;
        }
    }
    false
}

/// Tarjan's components over matched values that cannot reach a free value; value `a` leads
/// to every other value of the variable matched to `a`. Unvisited values get `NONE`.
fn components(adjacency: &[Vec<u32>], owner: &[u32], reach_free: &[bool]) -> Vec<u32> {
    let values = owner.len();
    let is_node = |a: usize| owner[a] != NONE && !reach_free[a];
    let mut component = vec![NONE; values];
    let mut index = vec![NONE; values];
    let mut low = vec![0u32; values];
    let mut on_stack = vec![false; values];
    let mut stack: Vec<u32> = Vec::new();
    let mut calls: Vec<(u32, usize)> = Vec::new();
    let mut counter = 0u32;
    let mut components = 0u32;
    for root in 0..values {
        if !is_node(root) || index[root] != NONE {
            continue;
        }
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        on_stack[root] = true;
        stack.push(root as u32);
        calls.push((root as u32, 0));
        while let Some(&mut (a, ref mut next)) = calls.last_mut() {
            let a = a as usize;
            let edges = &adjacency[owner[a] as usize];
            if *next < edges.len() {
                let b = edges[*next] as usize;
                *next += 1;
                if b == a || !is_node(b) {
                    continue;
                }
                if index[b] == NONE {
                    index[b] = counter;
                    low[b] = counter;
                    counter += 1;
                    on_stack[b] = true;
                    stack.push(b as u32);
                    calls.push((b as u32, 0));
                } else if on_stack[b] {
                    low[a] = low[a].min(index[b]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                let parent = parent as usize;
                low[parent] = low[parent].min(low[a]);
            }
            if low[a] == index[a] {
                while let Some(b) = stack.pop() {
                    on_stack[b as usize] = false;
                    component[b as usize] = components;
                    if b as usize == a {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}
