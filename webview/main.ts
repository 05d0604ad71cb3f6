// The Ratchet panel's script. The panel itself (verdicts, wealth chart, evidence) is built on this
// entry; until then it shows that the host connected.
const root = document.getElementById('root');
if (root) root.textContent = 'Ratchet';
