//! Where a program variable comes from ([`Origin`]), set by the front end
//! where it creates the variable. Printers and witnesses decide from it
//! which variables have a name in the source; the names themselves
//! (`f.x.2`, `tmp%1`, `mem1[0]`, `alloc#next`) only keep variables apart.

/// What a program variable stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A C variable: a local, a parameter (of a function or of `main`),
    /// a global, a `static` local.
    Source,
    /// A temporary of the front end (`nondet%1`, `f%ret`), live within a
    /// statement or carrying a call's result.
    Temporary,
    /// A cell of a memory block: `of` is what the block is, `path` the
    /// access path inside it (`[2]`, `.next`, `[1].b`; empty for a scalar
    /// whose address is taken).
    Cell { of: Owner, path: String },
    /// The block, offset or size of a pointer; `pointer` is the pointer's
    /// source name (the variable, or the cell's access path: `s.next`).
    PointerPart { of: Owner, part: PointerPart, pointer: String },
    /// What the front end keeps of an allocation.
    Allocation(AllocationPart),
    /// The block of a string literal that may be merged with an
    /// identical one (`str.base`).
    StringLiteral,
    /// Whether the compiler placed two objects next to each other (0/1),
    /// which decides `p == q` for one past the end of one and the start of
    /// the other (`adjacent%placed`; see `c::meaning`).
    Adjacency,
    /// The number of `argv` or `envp` strings the program does not name.
    HiddenCount,
    /// The marker of the undefined-behaviour site whose assumption an
    /// edge makes ([`super::UNDEFINED_SITE`]).
    UndefinedSite,
    /// What the model keeps of a link (`next` of `struct list`): whether
    /// pointers stored through it follow the order of allocation, and the
    /// link last read or written (see `c/lower/memory/links.rs`).
    LinkOrder(LinkVariable),
    /// What the model keeps of the address an integer variable holds
    /// (`(unsigned long)p + 8`; see `c/lower/memory/addresses.rs`).
    HeldAddress(HeldAddressPart),
    /// A signed variable converted to the unsigned type of its width
    /// (`(unsigned int) x`, `x mod 2^32`), kept equal to the conversion:
    /// a quantity a ranking function may use (see `ir/unsigned_view.rs`).
    /// Its source name is the C expression.
    UnsignedView,
}

/// The variables kept per integer variable that holds an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeldAddressPart {
    Base,
    Offset,
    Size,
    /// (0/1) the integer variable still has the value it was given with
    /// the address.
    Held,
}

/// The variables the model keeps per link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkVariable {
    /// (0/1) every stored link points to an older block, or is NULL.
    Down,
    /// (0/1) every stored link points to a newer block, or is NULL.
    Up,
    /// Every link stored into a block numbered below it points to an
    /// older block, or is NULL (what `Down` keeps of the blocks a walk has
    /// not rewritten yet, once it has ended).
    DownBelow,
    /// Every link stored into a block numbered at or above it points to a
    /// newer block, or is NULL (what `Up` keeps of the blocks allocated
    /// after it ended, and of those a reversal has rewritten).
    UpAbove,
    /// (0/1) the newest block's link may be unwritten.
    Pending,
    /// The newest block that may hold the link.
    Newest,
    /// (0/1) the second newest block's link may be unwritten.
    Pending2,
    /// The block allocated before the newest.
    Second,
    /// (0/1) no pointer to the newest block has been stored in memory.
    Unlinked,
    /// (0/1) every stored link points to the start of a block that can
    /// hold the struct, or is NULL.
    AtStart,
    /// The block whose link was last read or written (0: none known).
    CacheBlock,
    /// The offset of that link's struct in its block.
    CacheOffset,
    /// The block that link points to: a quantity a walk that unlinks
    /// nodes ahead of it decreases.
    CacheValue,
}

/// What a memory block or a pointer belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// A C variable, whose name is the root of the access path.
    Variable,
    /// A `static` local, named `f::x` apart from other functions' ones
    /// (no C name reaches it from outside its function's scope chain).
    StaticLocal,
    /// A front-end temporary (a call's result).
    Temporary,
    /// A compound literal (`(int[]){1, 2}`): an object without a name,
    /// handled like a temporary.
    CompoundLiteral,
    /// A conditional expression's pointer value (`cond`).
    Conditional,
    /// A block without a name (`malloc`, `alloca`, `argv`'s strings):
    /// `mem1`.
    Anonymous,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerPart {
    Base,
    Offset,
    Size,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocationPart {
    /// The block of an allocation site that runs more than once.
    Base,
    /// The size asked for.
    Size,
    /// The outcome of an allocation that may fail (0: it failed; see
    /// [`super::ALLOCATION_RESULT`]).
    Result,
    /// The next block id of sites that run more than once.
    Counter,
}

impl Origin {
    /// A front-end temporary, or a part or cell of one or of a compound
    /// literal: never shown.
    pub fn is_temporary(&self) -> bool {
        match self {
            Origin::Temporary => true,
            Origin::Cell { of, .. } | Origin::PointerPart { of, .. } => matches!(of, Owner::Temporary | Owner::CompoundLiteral),
            _ => false,
        }
    }

    /// Not the program's: temporaries and the model's own bookkeeping
    /// (allocation counter, hidden counts, undefined-site markers). A
    /// witness leaves these free.
    pub fn is_internal(&self) -> bool {
        self.is_temporary()
            || matches!(self, Origin::Allocation(AllocationPart::Counter) | Origin::Adjacency | Origin::HiddenCount | Origin::UndefinedSite | Origin::LinkOrder(_) | Origin::HeldAddress(_) | Origin::UnsignedView)
    }

    /// Whether the source name is a C lvalue a witness validator parses: a
    /// variable, a cell of a C variable (`a[2]`, `s.next`); not a
    /// pointer's part (`p.base`, `p.off`: they read like members, but a
    /// pointer has none), the allocation's values (`alloc.size`), a
    /// literal's block, the cells of anonymous blocks (`mem1[0]`) or of
    /// `static` locals (`f::a[0]`), nor the bookkeeping variables.
    pub fn reads_as_lvalue(&self) -> bool {
        match self {
            Origin::Source => true,
            Origin::Temporary | Origin::StringLiteral | Origin::Allocation(_) | Origin::PointerPart { .. } => false,
            Origin::Cell { of, .. } => *of == Owner::Variable,
            Origin::Adjacency | Origin::HiddenCount | Origin::UndefinedSite | Origin::LinkOrder(_) | Origin::HeldAddress(_) | Origin::UnsignedView => false,
        }
    }

    /// Whether the source name is a plain C identifier: a C variable, or
    /// the one cell of a scalar whose address is taken.
    pub fn is_identifier(&self) -> bool {
        match self {
            Origin::Source => true,
            Origin::Cell { of, path } => path.is_empty() && *of == Owner::Variable,
            _ => false,
        }
    }
}

/// How a variable's name was made apart from its source name (see
/// `c::cfg::CfgBuilder::declare`): `scope.x` for the first copy, then
/// `scope.x.2`, `scope.x.3`, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renaming {
    /// The function (or `.global`) the variable was declared in.
    pub scope: String,
    /// `None` for `scope.x`, `Some(k)` for `scope.x.k`.
    pub copy: Option<usize>,
}
