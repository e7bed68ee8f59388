public enum RenderingPlaceholder {}
