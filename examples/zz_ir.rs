fn main() {
    let a: Vec<String> = std::env::args().collect();
    let loaded = meeple::load::load(std::path::Path::new(&a[1]), &[]);
    let program = loaded.program.expect("checks");
    for b in &program.blocks {
        for s in &b.stmts {
            let t = format!("{:?}", s.kind);
            if t.contains("Sum") {
                println!("{t}\n");
            }
        }
    }
}
