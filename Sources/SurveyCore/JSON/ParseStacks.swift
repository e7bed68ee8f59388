/// Growable stacks the JSON parser collects members and elements on, so that finished objects and
/// arrays are built at their final size and values are moved rather than copied (no reference
/// counting per value). The only manual memory management in the core; confined to the parser.
final class ParseStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    func push(_ element: Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements from `start` to the top into a new array and pops them.
    func popArray(from start: Int) -> [Element] {
        let length = count - start
        let result = [Element](unsafeUninitializedCapacity: length) { buffer, initialized in
            if let base = buffer.baseAddress { base.moveInitialize(from: storage + start, count: length) }
            initialized = length
        }
        count = start
        return result
    }

    /// Moves out each element from `start` to the top, in order, and pops them. If `body` throws,
    /// the remaining elements are destroyed.
    func popEach<Failure: Error>(from start: Int, _ body: (consuming Element) throws(Failure) -> Void) throws(Failure) {
        var position = start
        defer {
            if position < count { (storage + position).deinitialize(count: count - position) }
            count = start
        }
        while position < count {
            let element = (storage + position).move()
            position += 1
            try body(element)
        }
    }
}
