import Testing

@Test func placeholder() { #expect(Int("1") == 1) }
