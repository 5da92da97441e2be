// Colours chosen to print well on an office laser printer: dark ink on white paper, one muted accent
// that stays legible in greyscale.
export const PALETTE = {
  paper: '#FFFFFF',
  ink: '#1F3D32',
  accent: '#8C6D2F',
  text: '#1A1A1A',
  muted: '#5A5A5A',
  link: '#1F4E79',
} as const;
