import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source';

@Module({})
export class DatabaseModule {
  /** The TypeORM connection of an app; migrations are applied by the launcher and the tests, not here. */
  static forRoot(url: string, poolSize: number, applicationName: string): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(url, poolSize, applicationName) })],
    };
  }
}
