export default function Page() {
  return <p>Baseline page</p>;
}
