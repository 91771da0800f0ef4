//! How a conversion gives back the memory of its intermediate structures.

/// What happens to a conversion's document model, resolved styles, layout caches and
/// laid-out pages once the PDF is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Release {
    /// Freed block by block as they go out of use: a process that converts one document
    /// after another (the service, the tests).
    Free,
    /// Left to the end of the process, which takes the whole heap back at once: `convert`,
    /// one document per process. Freeing block by block cost ~4% of a loop of `convert`
    /// over `corpus/docs` (three alternating loops: 2.07–2.12 s freed, 1.98–2.00 s left),
    /// most of it in the long documents (`drop_in_place::<Layout>` and glibc's `free`).
    AtExit,
}

impl Release {
    /// Disposes of `value` accordingly.
    pub fn dispose<T>(self, value: T) {
        match self {
            Release::Free => drop(value),
            Release::AtExit => std::mem::forget(value),
        }
    }
}
