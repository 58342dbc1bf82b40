//! Strongly connected components of the graph of types, for the questions lowering asks about
//! recursion ("does this field's type lead back to its owner?") in linear time.

use std::collections::BTreeMap;

/// The strongly connected component of every node, as an index: two nodes share an index
/// exactly when each reaches the other. `edges` lists each node's successors by name; names
/// that are not nodes are ignored.
///
/// Tarjan's algorithm, iterative so that a long chain of types cannot exhaust the stack.
pub fn components(edges: &BTreeMap<String, Vec<String>>) -> BTreeMap<String, usize> {
    let names: Vec<&str> = edges.keys().map(String::as_str).collect();
    let index_of: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, name)| (*name, i)).collect();
    let successors: Vec<Vec<usize>> = names
        .iter()
        .map(|name| edges[*name].iter().filter_map(|to| index_of.get(to.as_str()).copied()).collect())
        .collect();
    let component = tarjan(&successors);
    names.iter().map(|name| ((*name).to_owned(), component[index_of[name]])).collect()
}

const UNVISITED: usize = usize::MAX;

fn tarjan(successors: &[Vec<usize>]) -> Vec<usize> {
    let n = successors.len();
    let mut order = vec![UNVISITED; n]; // discovery index
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![UNVISITED; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut next_order = 0;
    let mut next_component = 0;
    for root in 0..n {
        if order[root] != UNVISITED {
            continue;
        }
        // Each frame: a node and how many of its successors were looked at.
        let mut frames: Vec<(usize, usize)> = vec![(root, 0)];
        order[root] = next_order;
        low[root] = next_order;
        next_order += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut seen)) = frames.last_mut() {
            if let Some(&next) = successors[node].get(*seen) {
                *seen += 1;
                if order[next] == UNVISITED {
                    order[next] = next_order;
                    low[next] = next_order;
                    next_order += 1;
                    stack.push(next);
                    on_stack[next] = true;
                    frames.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(order[next]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == order[node] {
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component[member] = next_component;
                    if member == node {
                        break;
                    }
                }
                next_component += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
        edges.iter().map(|(from, to)| ((*from).to_owned(), to.iter().map(|t| (*t).to_owned()).collect())).collect()
    }

    #[test]
    fn nodes_on_one_cycle_share_a_component_and_others_do_not() {
        let c = components(&graph(&[
            ("A", &["B"]),
            ("B", &["C", "D"]),
            ("C", &["A"]),
            ("D", &["D", "Missing"]),
            ("E", &[]),
        ]));
        assert_eq!(c["A"], c["B"]);
        assert_eq!(c["B"], c["C"]);
        assert_ne!(c["A"], c["D"]);
        assert_ne!(c["D"], c["E"]);
        assert_ne!(c["A"], c["E"]);
    }

    #[test]
    fn a_long_chain_does_not_exhaust_the_stack() {
        let n = 200_000;
        let edges: BTreeMap<String, Vec<String>> =
            (0..n).map(|i| (format!("T{i}"), vec![format!("T{}", (i + 1) % n)])).collect();
        let c = components(&edges);
        assert!(c.values().all(|&k| k == c["T0"]), "one ring is one component");
    }
}
