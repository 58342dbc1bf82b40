use apigen::model::reach::Need;
fn main() {
    let dir = std::env::args().nth(1).unwrap();
    let (api, _) = apigen::load(std::path::Path::new(&dir)).map_err(|d| d.render()).unwrap();
    let reach = api.reach();
    let (mut every, mut groups, mut unref, mut total_len) = (0, 0, 0, 0);
    let mut hist = std::collections::BTreeMap::new();
    for name in api.types.keys() {
        match reach.of_type(name) {
            Need::Every => every += 1,
            Need::Some { groups: g, .. } if g.is_empty() => unref += 1,
            Need::Some { groups: g, .. } => {
                groups += 1;
                total_len += g.len();
                *hist.entry(g.len()).or_insert(0) += 1;
            }
        }
    }
    println!(
        "groups {} types {} every {every} some {groups} (mean {:.1}) unreferenced {unref}",
        reach.groups().len(),
        api.types.len(),
        total_len as f64 / groups.max(1) as f64
    );
    println!("{hist:?}");
}
