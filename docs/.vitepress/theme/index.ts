// The default VitePress theme with the site's own CSS (custom.css).
import DefaultTheme from "vitepress/theme";
import "./custom.css";

export default DefaultTheme;
