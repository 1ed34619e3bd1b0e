export function KeyIcon() {
  return (
    <svg
      width="11"
      height="11"
      viewBox="0 0 16 16"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
    >
      <circle cx="5" cy="11" r="3.2" />
      <path d="M7.3 8.7 14 2M11.5 4.5l2 2M9.8 6.2l1.5 1.5" strokeLinecap="round" />
    </svg>
  );
}
