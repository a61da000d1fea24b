use std::path::PathBuf;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let loaded = meeple::load::load(&PathBuf::from(&args[1]), &[]);
    print!(
        "{}",
        meeple::diag::render_all(
            &loaded.diagnostics,
            &loaded.sources,
            meeple::diag::RenderStyle::plain()
        )
    );
    if let Some(p) = loaded.program {
        let p = std::sync::Arc::new(p);
        let mut g = meeple::engine::Game::new(p.clone(), p.min_players, 1).unwrap();
        let mut rng = meeple::engine::Rng::new(1, 9);
        while !g.is_over() {
            let w = g.waiting_on()[0];
            let n = g.options(w).len();
            g.apply(w, rng.index(n)).unwrap();
        }
        for l in g.log(meeple::engine::Viewer::Spectator) {
            println!("{l}");
        }
        println!("{}", g.view(meeple::engine::Viewer::Player(0)));
        println!("{}", g.view(meeple::engine::Viewer::Spectator));
    }
}
