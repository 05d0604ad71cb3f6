// The code's formatting, kept as the house wrote it before Prettier came (single quotes,
// semicolons, trailing commas, parenthesised arrow parameters). The width is the one at which
// formatting that code changed the fewest lines: 140 → 20,205, 200 → 6,526, 240 → 5,250,
// 280 → 5,314 (a narrower width breaks the long lines, a wider one joins the short ones).
export default {
  singleQuote: true,
  printWidth: 240,
};
