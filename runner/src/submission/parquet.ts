// Rows → one parquet file with the submission columns (all nullable, as the reference's
// schema), via hyparquet-writer.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { SUBMISSION_COLUMNS, type ColumnType, type SubmissionRow } from './format.js';

const PARQUET_TYPE: Record<ColumnType, 'STRING' | 'INT64' | 'DOUBLE' | 'BOOLEAN'> = {
  string: 'STRING',
  int64: 'INT64',
  float64: 'DOUBLE',
  bool: 'BOOLEAN',
};

export function rowsToParquet(rows: readonly SubmissionRow[]): Uint8Array {
  const columnData = SUBMISSION_COLUMNS.map(([name, type]) => ({
    name,
    type: PARQUET_TYPE[type],
    nullable: true,
    data: rows.map((r) => {
      const v = r[name];
      if (v === undefined) return null;
      return type === 'int64' ? BigInt(v as number) : v;
    }),
  }));
  return new Uint8Array(parquetWriteBuffer({ columnData }));
}
