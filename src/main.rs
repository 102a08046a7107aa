fn main() {
    println!("tessera: under construction");
}
