public enum TestKitPlaceholder {}
